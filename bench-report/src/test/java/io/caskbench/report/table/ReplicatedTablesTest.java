package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.ResultFile;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The replicated block from a small run folder (test resource {@code replicated-run}): every replicated row
 * as a ratio of the single-node store at the same client count, the sentence on what one machine measures,
 * and a saturated open-loop row marked as such.
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
        // open loop, put at 8 clients: p99 3,000 / 60 = 50.00 and 3,300 / 60 = 55.00
        assertThat(text).containsPattern("put +8 +200 +20\\.0 +60\\.0 +900 +3,000 +50\\.0 +950 +3,300 +55\\.0");
        assertThat(text).containsPattern("get +8 +200 +25\\.0 +70\\.0 +800 +2,500 +35\\.7 +820 +2,600 +37\\.1");
        assertThat(text).contains("SHARDED at 8 clients (150 of 200 ops/s)").doesNotContain("REPLICATED at 8 clients (");
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
