package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.docs.PublishedBlocks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.caskbench.report.testing.SampleRuns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 1000-thread block, from a threads run at the suite's real shape (1000 threads x 100 operations, 100k
 * keys): BitCask against the best of all peers per method, "not comparable" where a peer has no row, every
 * store with its kill -9 column, the sync policy and the command stated.
 */
class ThreadsTablesTest {

    @Test
    void theDocsCommandFillsTheThreadsBlockFromAThreadsRun(@TempDir Path tmp) throws Exception {
        Path run = SampleRuns.copy("sample-run", tmp);
        Path page = Files.writeString(tmp.resolve("README.md"), SampleRuns.page("threads"));

        assertThat(SampleRuns.report("docs", run.toString(), page.toString())).isZero();

        String text = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(text).startsWith("# caskbench\n\nIntro.\n\n<!-- generated:threads begin -->\n")
                .endsWith("<!-- generated:threads end -->\n\nLinks.\n")
                .contains("from the threads results", "- run: `sample-run`",
                        "- command: `./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests -Dcaskbench.suites=threads",
                        "- forks per row: 3 (all 32 rows); fewer than 5 forks: every verdict is indicative");
        // The shape comes from the rows: 100 operations per thread, as many keys as an invocation has operations.
        assertThat(text).contains("1000 threads x 100 operations per invocation, 100,000 keys, 16-byte keys,"
                + " 100-byte values, random order", "As many keys as an invocation has operations: a put round fills");
        // The best peer is chosen from all five, and the kill -9 column stands beside it.
        assertThat(line(text, "| get |")).contains("| 3,000,000 | Chronicle Map | 2,400,000 | 1.25 (",
                "| win (indicative, 3 forks) |", "| every acknowledged write / every acknowledged write (recovery");
        assertThat(line(text, "| put |")).contains("| 900,000 | Chronicle Map | 500,000 | 1.80 (");
        // H2 MVStore has no mixed row: no best of the rest.
        assertThat(line(text, "| mixed, 9 gets to 1 overwrite |")).contains("| - | - | - | not comparable |");
        assertThat(text).contains("mixed, 9 gets to 1 overwrite: not comparable, no row of H2 MVStore at this shape.");
        // Every store, the peers' other settings included, with what a kill -9 leaves.
        assertThat(line(text, "| RocksDB |")).contains("450,000", "200,000", "350,000",
                "| 3 | every acknowledged write |");
        assertThat(line(text, "| H2 MVStore |")).contains("| - | 3 | loses up to ~1 s of writes |");
        assertThat(text).contains("| " + StoreCatalog.label("LMDB_RENEW_100") + " |");
        // A put row whose store held fewer than 0.9 of its label is shown as such, not as a figure.
        assertThat(line(text, "| BitCask FILE_CHANNEL |")).contains("| below its label |");
        assertThat(text).contains("BitCask runs with SyncPolicy.NONE and no store here forces per write",
                Headline.DEFERS, "Reproduce: `" + Headline.THREADS_COMMAND + "`.");
    }

    /**
     * A fork that failed leaves no data: the row shows "2 of 3" forks, the block's header names it, and a
     * verdict that rests on it is not judged (a best peer from fewer forks than configured wins no ratio).
     */
    @Test
    void aBestPeerWithAFailedForkIsNotJudgedAndItsForksAreCountedFromTheData(@TempDir Path tmp) throws Exception {
        Path run = SampleRuns.copy("sample-run", tmp);
        Path json = run.resolve("threads.json");
        ArrayNode results = (ArrayNode) new ObjectMapper().readTree(json.toFile());
        for (JsonNode r : results) {
            if (r.get("benchmark").asText().endsWith(".put") && "CHRONICLE_MAP".equals(r.at("/params/store").asText())) {
                // JMH keeps the configured fork count and leaves out the data of a fork that failed.
                ArrayNode raw = (ArrayNode) r.at("/primaryMetric/rawData");
                raw.remove(raw.size() - 1);
            }
        }
        new ObjectMapper().writeValue(json.toFile(), results);
        Path page = Files.writeString(tmp.resolve("README.md"), SampleRuns.page("threads"));

        assertThat(SampleRuns.report("docs", run.toString(), page.toString())).isZero();

        String text = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(line(text, "| put |")).contains("| not judged |").doesNotContain("1.80 (");
        assertThat(text).contains("put: not judged, Chronicle Map has 2 of 3 forks of data.");
        assertThat(line(text, "| Chronicle Map |")).contains("| 3, 2 of 3 |");
        assertThat(text).contains("- forks per row: 2 (1 rows), 3 (31 rows)",
                "fewer forks of data than configured (a fork failed; see the run log): ThousandThreads.put", ": 2 of 3");
    }

    @Test
    void aRunWithoutThreadRowsSaysWhichSuiteMeasuresThem() {
        String text = ThreadsTables.render(List.of(), List.of()).text();

        assertThat(text).contains("No 1000-thread rows in this run", Headline.THREADS_COMMAND);
    }

    @Test
    void theThreadsBlockIsAPublishedBlockWithItsPlaceholder(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("docs/runs"));
        Files.writeString(tmp.resolve("README.md"), "# x\n\n" + Docs.placeholder("threads", "README.md") + "\n");
        Files.writeString(tmp.resolve("docs/store.md"), "# y\n\n" + Docs.placeholder("threads", "docs/store.md") + "\n");

        PublishedBlocks.Outcome outcome = PublishedBlocks.check(tmp);

        assertThat(outcome.problems()).isEmpty();
        assertThat(outcome.placeholders()).isEqualTo(2);
        assertThat(Docs.SUITES).contains("threads");
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow();
    }
}
