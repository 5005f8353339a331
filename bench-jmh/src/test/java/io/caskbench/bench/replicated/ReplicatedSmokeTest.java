package io.caskbench.bench.replicated;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.suite.SmokeRun;
import io.caskbench.report.table.ReplicatedTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the replicated suite in the smoke profile (three replicas started and stopped per fork, on loopback),
 * so that a broken benchmark fails the build, and checks that every row reaches the JSON and the comparison.
 * Measures nothing.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReplicatedSmokeTest {

    @Test
    void everyDeploymentRunsAndTheComparisonHasItsRows(@TempDir Path results) throws Exception {
        SmokeRun.run(results, "replicated", null);

        String json = Files.readString(results.resolve("replicated.json"));
        assertThat(json).contains("\"benchmark\" : \"io.caskbench.bench.replicated.ReplicatedThroughput.put\"",
                "\"benchmark\" : \"io.caskbench.bench.replicated.ReplicatedThroughput.get\"",
                "\"benchmark\" : \"io.caskbench.bench.replicated.ReplicatedOpenLoop.mix\"",
                "\"deployment\" : \"SHARDED\"");
        for (String metric : new String[] {"get:p50", "put:p99", "p99.9", "max", "offered", "achieved", "harness:p50",
            "harness:p99"}) {
            assertThat(json).contains("\"" + metric + "\" : {");
        }
        String comparison = Files.readString(results.resolve("replicated-comparison.txt"));
        System.out.println(comparison); // the smoke run's figures mean nothing, but show what a row looks like
        assertThat(comparison).contains(ReplicatedTables.CAVEAT);
        // a put and a get row at 8 clients in each table, every one with figures for all three deployments
        // (a missing figure prints "-", a missing ratio leaves the line ending in a blank; a ratio the open-loop
        // rules refuse says why: a row that did not keep up, a p99 at its harness floor)
        assertThat(comparison.lines().filter(l -> l.matches("(put|get) +8 .*")).toList()).hasSize(4)
                .allSatisfy(l -> assertThat(l).doesNotContain(" - ")
                        .containsPattern("(\\d|ops/s|censored|at the harness floor)$"));
        // and the harness passes of the three deployments' forks at 8 clients
        assertThat(comparison).containsPattern("harness only +8 +50 +\\d");
    }
}
