package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the latency suite in the smoke profile, so that a broken merge or tail benchmark fails the build,
 * and checks that its comparison fills a row per backend. Measures nothing.
 */
class LatencySmokeTest {

    @Test
    void bothBenchmarksRunAndTheComparisonHasTheirRows(@TempDir Path results) throws Exception {
        SmokeRun.run(results, "latency", null);

        String json = Files.readString(results.resolve("latency.json"));
        assertThat(json).contains("\"benchmark\" : \"io.caskbench.bench.store.MergeLatency.rw\"",
                "\"benchmark\" : \"io.caskbench.bench.store.MixedTail.mix\"",
                "\"benchmark\" : \"io.caskbench.bench.store.MixedTail.harness\"");
        String comparison = Files.readString(results.resolve("latency-comparison.txt"));
        for (String backend : StoreSuite.BACKENDS) {
            // One row per backend in each table, each with its figures (a number with a decimal point or a comma).
            assertThat(comparison.lines().filter(l -> l.startsWith(backend + " ")).toList())
                    .as(comparison).hasSize(2)
                    .allSatisfy(l -> assertThat(l).containsPattern("\\d[.,]\\d"));
        }
        for (String backend : StoreSuite.BACKENDS) {
            assertThat(comparison).containsPattern(backend + ", unpaced +\\d");
        }
        assertThat(comparison).containsPattern("harness alone +\\d");
    }
}
