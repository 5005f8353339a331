package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunRecord;
import io.caskbench.report.testing.SampleRuns;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The virtual-thread table from a fixture run: each virtual row beside its store's platform row, the ratio's
 * interval, the pins summed and the carriers at their largest level.
 */
class VirtualTablesTest {

    @Test
    void everyVirtualRowStandsBesideItsPlatformRowWithItsCounters(@TempDir Path tmp) throws Exception {
        List<JmhResult> rows = ResultFile.read(SampleRuns.copy("virtual-run", tmp).resolve("virtual.json")).results();

        String md = VirtualTables.render(rows).markdown(4);

        assertThat(md).contains("#### get", "#### put", "#### forced put (SyncPolicy.ALWAYS)",
                "| store | threads | ops/s (fork means) | x platform (95% interval) | pinned | carriers added |");
        // The fixture's 1000 virtual threads run twice as fast as the platform ones, 100,000 at half speed;
        // pins are summed over 3 forks of 3 iterations, carriers are the largest level seen.
        assertThat(line(md, "| BITCASK_MAPPED | 1,000 virtual |")).matches(".*\\| 2\\.0\\d \\(1\\.9\\d-2\\.\\d\\d\\) \\| 3 \\| 0 \\|$");
        assertThat(line(md, "| BITCASK_MAPPED | 100,000 virtual |")).matches(".*\\| 0\\.\\d\\d \\(0\\.\\d\\d-0\\.\\d\\d\\) \\| 6 \\| 3 \\|$");
        assertThat(line(md, "| BITCASK_MAPPED | 1,000 platform |")).endsWith("|  |  |  |");
        assertThat(line(md, "| BITCASK_FILE_CHANNEL | 1,000 platform |")).contains("(");
        // Forced puts name BitCask by its backend, and the platform row is GroupCommit's gang under ALWAYS.
        assertThat(md.substring(md.indexOf("#### forced put"))).contains("| BITCASK_FILE_CHANNEL | 1,000 platform |",
                "| BITCASK_FILE_CHANNEL | 100,000 virtual |").doesNotContain("BITCASK_MAPPED");
        assertThat(line(md.substring(md.indexOf("#### forced put")), "| BITCASK_FILE_CHANNEL | 100,000 virtual |"))
                .endsWith("| 0 | 6 |");
    }

    @Test
    void rowsOfOtherBenchmarksAndUnforcedGangsAreLeftOut() {
        Metric m = Metric.of(1, 0, "ops/s");
        assertThat(VirtualTables.place(JmhResult.of("x.GroupCommit.gang", "thrpt", Map.of("backend", "MAPPED", "sync", "NONE"), m)))
                .isEmpty();
        assertThat(VirtualTables.place(JmhResult.of("x.ThousandThreads.mixed", "thrpt", Map.of("store", "ROCKSDB"), m))).isEmpty();
        assertThat(VirtualTables.place(JmhResult.of("x.PeersSingleThread.get", "thrpt", Map.of("store", "ROCKSDB"), m))).isEmpty();
        assertThat(VirtualTables.place(JmhResult.of("x.VirtualThreads.get", "thrpt", Map.of("store", "ROCKSDB", "threads", "100000"), m)))
                .contains(new VirtualTables.Place("get", "ROCKSDB", "100,000 virtual"));
    }

    @Test
    void aRowWithoutCountersOrRawDataStillReads() {
        JmhResult bare = JmhResult.of("x.VirtualThreads.get", "thrpt", Map.of("store", "HARNESS", "threads", "1000"),
                Metric.of(5, 0, "ops/s"));
        assertThat(VirtualTables.counter(bare, "pinned", false)).isEmpty();
        JmhResult scored = new JmhResult("x.VirtualThreads.get", "thrpt", 1, 1, null, null, Map.of(), Metric.of(5, 0, "ops/s"),
                Map.of("carriersAdded", Metric.of(-1, 0, "#")));
        assertThat(VirtualTables.counter(scored, "carriersAdded", true)).isEqualTo("-1");
    }

    @Test
    void theDocsCommandFillsTheVirtualAndTheEventsBlocksOfAPage(@TempDir Path tmp) throws Exception {
        Path run = SampleRuns.copy("virtual-run", tmp);
        RunRecord.write(run, "virtual", "./mvnw -B -ntp -pl bench-jmh -am package exec:exec -DskipTests -Dcaskbench.suites=virtual");
        String page = "# Observability\n\n" + Docs.placeholder("virtual", "docs/observability.md") + "\n\nProse.\n\n"
                + Docs.placeholder("events", "docs/observability.md") + "\n";

        Docs.Filled filled = Docs.fill(page, run, "docs docs/runs/virtual-run docs/observability.md",
                new Docs.Images(tmp.resolve("img"), "img"));

        assertThat(filled.written()).containsExactly("virtual", "events");
        assertThat(filled.text()).doesNotContain(Docs.NO_RUN).contains("\n\nProse.\n\n",
                "- command: `./mvnw -B -ntp -pl bench-jmh -am package exec:exec -DskipTests -Dcaskbench.suites=virtual`",
                "- forks per row: 3 (all 15 rows); fewer than 5 forks: every verdict is indicative",
                "- forks per row: 5 (all 6 rows)\n", "#### forced put (SyncPolicy.ALWAYS)", "| put | MAPPED | JDK default |");
    }

    static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(
                "no line starting " + start + " in\n" + text));
    }
}
