package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.overwrite.IntervalSample;
import io.caskbench.bench.store.overwrite.OverwriteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the overwrite suite in the smoke profile (2 s per store), so a broken store setting, load or
 * recorder fails the build, and checks that every store's summary reaches the JSON and its time series
 * the results folder. Measures nothing.
 */
class OverwriteSmokeTest {

    @Test
    void everyStoreRunsAndWritesItsTimeSeries(@TempDir Path results) throws Exception {
        String output = SmokeRun.run(results, "overwrite", null);
        assertThat(output).doesNotContain("could not render");

        String json = Files.readString(results.resolve("overwrite.json"));
        for (String metric : new String[] {"spaceAmpMax", "spaceAmpMean", "writeAmp", "throughputLastOverFirstMinute",
            "throughputRunOverFirstMinute", "put:p99", "get:p99", "achieved", "compactions", "compactionMillis",
            "compactionInputBound"}) {
            assertThat(json).contains("\"" + metric + "\" : {");
        }
        try (Stream<Path> files = Files.list(results)) {
            List<Path> series = files.filter(f -> f.getFileName().toString().startsWith("overwrite-")
                    && f.getFileName().toString().endsWith(".csv")).toList();
            for (OverwriteStore store : OverwriteStore.values()) {
                String prefix = "overwrite-" + store.name().toLowerCase(Locale.ROOT) + "-100-zipfian-2000-";
                Path file = series.stream().filter(f -> f.getFileName().toString().startsWith(prefix)).findFirst()
                        .orElseThrow(() -> new AssertionError("no time series for " + store + " in " + series));
                List<String> lines = Files.readAllLines(file);
                assertThat(lines.get(0)).isEqualTo(IntervalSample.HEADER);
                assertThat(lines).as(file.toString()).hasSize(5); // 2 s in 500 ms intervals
                int spaceAmp = List.of(IntervalSample.HEADER.split(",")).indexOf("spaceAmp");
                // Every key is on disk at least once: the disk holds at least about the live bytes.
                assertThat(lines.subList(1, lines.size())).as(String.join("\n", lines))
                        .allSatisfy(l -> assertThat(Double.parseDouble(l.split(",")[spaceAmp])).isGreaterThan(0.5));
                System.out.println(file.getFileName() + "\n" + String.join("\n", lines));
            }
        }
    }
}
