package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the latency suite in the smoke profile, so that a broken open-loop, merge or tail benchmark fails the
 * build, and checks that the open-loop rows reach the JSON with their percentiles and rates and that the
 * comparison fills a row per backend. Measures nothing.
 */
class LatencySmokeTest {

    @Test
    void everyBenchmarkRunsAndTheComparisonHasTheirRows(@TempDir Path results) throws Exception {
        SmokeRun.run(results, "latency", null);

        String json = Files.readString(results.resolve("latency.json"));
        assertThat(json).contains("\"benchmark\" : \"io.caskbench.bench.store.latency.MergeLatency.rw\"",
                "\"benchmark\" : \"io.caskbench.bench.store.latency.MixedTailOpenLoop.mix\"",
                "\"benchmark\" : \"io.caskbench.bench.store.latency.MergeTailOpenLoop.rw\"");
        for (String metric : new String[] {"p50", "p99", "p99.9", "max", "offered", "achieved", "get:p99", "put:p99.9",
            "get:latency", "harness:p99", "harness:latency", "spinCores"}) {
            assertThat(json).contains("\"" + metric + "\" : {");
        }
        String comparison = Files.readString(results.resolve("latency-comparison.txt"));
        System.out.println(comparison); // the smoke run's figures mean nothing, but show what a row looks like
        for (String backend : StoreSuite.BACKENDS) {
            // The open-loop tail (a get and a put row), the open-loop merge (none and back to back) and the
            // closed-loop merge rows (paced and unpaced), each with a figure.
            assertThat(comparison.lines().filter(l -> l.startsWith(backend + " ")).toList())
                    .as(comparison).hasSize(5)
                    .allSatisfy(l -> assertThat(l).containsPattern("\\d[.,]\\d"));
            assertThat(comparison).containsPattern(backend + ", unpaced +\\d");
        }
        // Each open-loop row is followed by its forks' harness passes.
        assertThat(comparison).containsPattern("harness only +5,000 .* all +\\d");
        assertThat(comparison).contains("closed loop");
    }
}
