package io.caskbench.bench.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bitcask.MergeResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short {@link MergeRecordingRun}: the chart is drawn, and the figures behind it are those of the recording. */
class MergeTimelineTest {

    @Test
    void theChartIsDrawnFromTheMergeAndTheOperationsAroundIt(@TempDir Path tmp) throws Exception {
        Path svg = tmp.resolve("merge.svg");
        MergeResult merged = new MergeRecordingRun(20_000, 100).run(tmp, svg);
        assertThat(merged.removedSegments()).isNotEmpty();
        // XChart's SVG draws its text as outlines: the file is checked for its frame, the figures below
        assertThat(Files.readString(svg)).startsWith("<?xml").contains("<svg", "viewBox=\"0 0 1000 440\"");

        // run() leaves its recording beside the chart
        MergeTimeline.Timeline t = MergeTimeline.read(tmp.resolve("merge.jfr"), tmp.resolve("store").toAbsolutePath().toString());
        assertThat(t.merges()).hasSize(1);
        double[] span = t.merges().get(0);
        assertThat(span[1]).isGreaterThan(span[0]);
        assertThat(t.puts()).isNotEmpty();
        assertThat(t.puts().firstKey()).as("puts before the merge").isLessThan(span[0]);
        assertThat(t.gets()).isNotEmpty();
        assertThat(t.gets().values()).allSatisfy(us -> assertThat(us).isPositive());
        assertThat(t.rollovers()).isNotEmpty();
    }
}
