package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.rule.OpenLoopRule;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The replicated block from a small run folder (test resource {@code replicated-run}): every replicated row
 * as a ratio of the single-node store at the same client count, the sentence on what one machine measures,
 * and an open-loop row that did not keep up showing its achieved rate instead of a ratio; and, from rows with
 * harness passes, a harness row per client count and no ratio against a percentile at its floor.
 */
class ReplicatedTablesTest {

    private static Path run() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(ReplicatedTablesTest.class.getResource("/replicated-run/replicated.json"))
                .toURI()).getParent();
    }

    @Test
    void givesEveryReplicatedRowAsARatioOfTheSingleNodeStore() throws Exception {
        String text = ReplicatedTables.render(ResultFile.read(run().resolve("replicated.json")).results()).text();

        assertThat(text).contains(ReplicatedTables.CAVEAT);
        // put at 1 client: 900 / 200,000 and 1,100 / 200,000
        assertThat(text).containsPattern("put +1 +200,000 +900 +0\\.00450 +1,100 +0\\.00550");
        // get at 64 clients: 10,000 / 2,000,000 and 12,000 / 2,000,000
        assertThat(text).containsPattern("get +64 +2,000,000 +10,000 +0\\.00500 +12,000 +0\\.00600");
        // open loop, put at 8 clients: p99 3,000 / 60 = 50.00 (REPLICATED's 199.5 of 200 ops/s is a rounding);
        // SHARDED did 150 of 200 ops/s: no ratio, its achieved rate.
        assertThat(text).containsPattern("put +8 +200 +20\\.0 +60\\.0 +900 +3,000 +50\\.0 +950 +3,300 +did not keep up: "
                + "150 of 200 ops/s");
        assertThat(text).containsPattern("get +8 +200 +25\\.0 +70\\.0 +800 +2,500 +35\\.7 +820 +2,600 +did not keep up");
        assertThat(text).doesNotContain("55.0").doesNotContain("37.1");
        // A run from before the harness pass: no floor invented.
        assertThat(text).containsPattern("harness only +harness floor: not in this run").doesNotContain(", at the harness");
    }

    /** An open-loop row of one fork: put and get p50 and p99, the rates, and the harness pass's p50 and p99 when given. */
    private static JmhResult openLoop(String deployment, double p50, double p99, double achieved, double unfinished,
            double harnessP50, double harnessP99) {
        Map<String, Metric> m = new HashMap<>();
        for (String op : List.of("put", "get")) {
            m.put(op + ":p50", one(p50));
            m.put(op + ":p99", one(p99));
        }
        m.put("offered", one(50));
        m.put("achieved", one(achieved));
        m.put("unfinished", one(unfinished));
        if (!Double.isNaN(harnessP50)) {
            m.put("harness:p50", one(harnessP50));
            m.put("harness:p99", one(harnessP99));
        }
        return new JmhResult("io.caskbench.bench.replicated.ReplicatedOpenLoop.mix", "ss", 1, 1, null, null,
                new LinkedHashMap<>(Map.of("deployment", deployment, "clients", "1", "rate", "50")),
                Metric.of(10_000, Double.NaN, "ms/op"), m);
    }

    private static Metric one(double value) {
        return new Metric(value, Double.NaN, List.of(), Map.of(), "us", List.of(List.of(value)));
    }

    @Test
    void aHarnessRowPerClientCountAndNoRatioAgainstAPercentileAtItsFloor() {
        List<JmhResult> rows = List.of(
                // SINGLE p99 400 against its harness's 380: at the floor, so no replicated row is a multiple of it.
                openLoop("SINGLE", 260, 400, 50, 0, 250, 380),
                openLoop("REPLICATED", 5_000, 9_000, 49.8, 0, 240, 390),
                // Fell behind and left 5 operations unstarted.
                openLoop("SHARDED", 4_000_000, 8_000_000, 24.29, 5, 255, 400));
        String text = ReplicatedTables.render(rows).text();

        assertThat(text).containsPattern("put +1 +50 +260, at the harness floor +400, at the harness floor +5,000 +9,000 "
                + "+n/a: SINGLE at the harness floor +4,000,000 +8,000,000 +did not keep up: 24.3 of 50.0 ops/s, 5 censored");
        assertThat(text).containsPattern("harness only +1 +50 +250 +380 +240 +390 +255 +400");
        assertThat(text).doesNotContain("23.1").doesNotContain("20,000").contains(OpenLoopRule.LEGEND);
    }

    @Test
    void fillsTheDocsBlockFromTheRunFolder() throws Exception {
        String page = "# Replication\n\n" + Docs.placeholder("replicated", "docs/replication.md") + "\n";

        Docs.Filled filled = Docs.fill(page, run(), "report docs replicated-run docs/replication.md",
                new Docs.Images(run(), "img"));

        assertThat(filled.written()).containsExactly("replicated");
        assertThat(filled.text()).contains("<!-- generated:replicated begin -->", "- run: `replicated-run`",
                ReplicatedTables.CAVEAT, "| put | 1 | 200,000 | 900 | 0.00450 | 1,100 | 0.00550 |")
                .doesNotContain(Docs.NO_RUN);
    }

    @Test
    void aRunWithoutReplicatedRowsSaysSo() {
        String text = ReplicatedTables.render(List.of()).text();

        assertThat(text).contains("No throughput rows in this run.", "No open-loop rows in this run.",
                ReplicatedTables.CAVEAT);
    }
}
