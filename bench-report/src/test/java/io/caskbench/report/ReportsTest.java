package io.caskbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {

    @Test
    void rendersSummariesAndIndexFromSampleRun(@TempDir Path dir) throws IOException {
        Path results = SampleRuns.copy("sample-run", dir);
        Path index = Reports.renderAll(results);
        assertThat(index).isEqualTo(results.resolve("index.html")).exists();
        String store = Files.readString(results.resolve("store-summary.txt"));
        assertThat(store).contains("BitCaskSingleThreadBenchmark.get", "backend=FILE_CHANNEL", "ops/s");
    }
}
