package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.table.StoreCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the scale suite in the smoke profile, at two small key counts, and checks that its comparison has a
 * row per store in the get and the put table, each with a figure at both key counts and their ratio, and
 * the open-time rows. Measures nothing.
 */
class ScaleSmokeTest {

    @Test
    void everyStoreHasItsRowAtEachKeyCountAndTheOpenRowsAreFilled(@TempDir Path results) throws Exception {
        SmokeRun.run(results, "scale", null);

        String json = Files.readString(results.resolve("scale.json"));
        assertThat(json).contains("\"benchmark\" : \"io.caskbench.bench.store.single.PeersSingleThread.get\"",
                "\"benchmark\" : \"io.caskbench.bench.store.single.PeersSingleThread.put\"",
                "\"benchmark\" : \"io.caskbench.bench.open.OpenBench.open\"");
        String comparison = Files.readString(results.resolve("scale-comparison.txt"));
        assertThat(comparison).contains("== Get, one thread: ops/s by key count", "== Put, one thread: ops/s by key count",
                "20k / 10k (95% interval)");
        for (String store : Arrays.stream(StoreSuite.STORES).map(StoreCatalog::label).toList()) {
            // One row in each table: after the label, two figures of any size (the harness alone passes
            // 100M ops/s) and a one-fork ratio, none of them missing.
            assertThat(comparison.lines().filter(l -> l.startsWith(store + " ")).toList()).as(store)
                    .hasSize(2).allSatisfy(l -> assertThat(l.substring(store.length()))
                            .containsPattern("^ +\\d[\\d,.]* +\\d[\\d,.]* +\\d+\\.\\d+ \\(1 fork\\)")
                            .doesNotContain(" - "));
        }
        assertThat(comparison).containsPattern("MAPPED, with hint files +\\d")
                .containsPattern("MAPPED, full scan, hint files removed +\\d")
                .containsPattern("MAPPED, full scan / with hint files \\(95% interval\\) +\\d");
        // The goals are stated at 10M keys, which a smoke run does not reach.
        assertThat(comparison).contains("open 10M keys with hint files, ms", "not measured");
    }
}
