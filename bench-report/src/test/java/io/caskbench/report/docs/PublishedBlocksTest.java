package io.caskbench.report.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.cli.ReportCli;
import io.caskbench.report.input.RunArchive;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.input.RunRecord;
import io.caskbench.report.table.Headline;
import io.caskbench.report.testing.SampleRuns;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed runs and the check of the published blocks, on a small synthetic checkout: a sample run archived
 * under docs/runs, a README and a docs page whose blocks come from it.
 */
class PublishedBlocksTest {

    private static final String RUN = "2025-11-22T01-00-00-store";

    @TempDir
    Path root;

    private Path committed;

    @BeforeEach
    void archiveASampleRun() throws Exception {
        Path run = Files.move(SampleRuns.copy("sample-run", root.resolve("results")), root.resolve("results/" + RUN));
        RunRecord.write(run, "store", "./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests");
        Files.writeString(run.resolve("store-comparison.txt"), "rendered, not archived\n");
        Files.writeString(run.resolve("run.log"), "# Run progress: 100.00% complete\n");
        Files.writeString(run.resolve("shm-cpu.json"), "{\"l3CacheBytes\": 33554432}\n");
        committed = RunArchive.archive(run, root.resolve(RunArchive.RUNS));
    }

    private void publish(String file, String suites, String invocationRun) throws Exception {
        StringBuilder text = new StringBuilder("# Page\n\nProse.\n\n");
        for (String suite : suites.split(",")) {
            text.append("<!-- generated:").append(suite).append(" begin -->\n<!-- generated:").append(suite)
                    .append(" end -->\n\nMore prose.\n\n");
        }
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        boolean readme = file.equals("README.md");
        String invocation = "docs " + invocationRun + " " + file + (readme ? " --images docs/img" : "");
        Docs.Images images = new Docs.Images(root.resolve("docs/img"), readme ? "docs/img" : "img");
        Files.writeString(path, Docs.fill(text.toString(), root.resolve(invocationRun), invocation, images).text());
    }

    @Test
    void aCommittedRunKeepsItsJsonAndLogCompressedAndIsNeverOverwritten() throws Exception {
        assertThat(committed).isEqualTo(root.resolve("docs/runs/" + RUN));
        assertThat(committed.resolve("store.json.gz")).exists();
        assertThat(committed.resolve("run.log.gz")).exists();
        assertThat(committed.resolve("machine.json")).exists();
        assertThat(committed.resolve("store-run.txt")).exists();
        // A side file that is not JMH results (the CPU's cache size) is read as it is: copied, not compressed.
        assertThat(committed.resolve("shm-cpu.json")).exists();
        assertThat(committed.resolve("store-comparison.txt")).doesNotExist();
        assertThat(committed.resolve("store.json")).doesNotExist();
        try (var in = new GZIPInputStream(Files.newInputStream(committed.resolve("store.json.gz")))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(Files.readString(root.resolve("results/" + RUN + "/store.json")));
        }
        // The same run archived again gives the same bytes (no time in the gzip header), but never over a committed one.
        Path again = RunArchive.archive(root.resolve("results/" + RUN), root.resolve("elsewhere"));
        assertThat(Files.readAllBytes(again.resolve("store.json.gz")))
                .isEqualTo(Files.readAllBytes(committed.resolve("store.json.gz")));
        var cli = ReportCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        cli.setOut(new PrintWriter(new StringWriter()));
        assertThat(cli.execute("archive", root.resolve("results/" + RUN).toString(), "--to",
                root.resolve(RunArchive.RUNS).toString())).isEqualTo(2);
        assertThat(err.toString()).contains("a committed run is never overwritten");
    }

    @Test
    void blocksFromACommittedRunPassAndNameTheirRun() throws Exception {
        publish("README.md", "headline", "docs/runs/" + RUN);
        publish("docs/store.md", "store,scale", "docs/runs/" + RUN);

        PublishedBlocks.Outcome outcome = PublishedBlocks.check(root);

        // The sample run has no scale results: that block stays empty, which is neither generated nor marked.
        assertThat(outcome.problems()).containsExactly("docs/store.md, scale block: does not name the command that"
                + " generated it");
        assertThat(outcome.generated()).isEqualTo(2);
        assertThat(Files.readString(root.resolve("README.md"))).contains("- run: `" + RUN + "`",
                "- command: `./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests`",
                "(`docs docs/runs/" + RUN + " README.md --images docs/img`)");
    }

    /** The 1000-thread blocks of the README and the store page come from the committed run's threads results. */
    @Test
    void theThreadsBlocksFromACommittedRunPass() throws Exception {
        publish("README.md", "headline,threads", "docs/runs/" + RUN);
        publish("docs/store.md", "store,threads", "docs/runs/" + RUN);

        PublishedBlocks.Outcome outcome = PublishedBlocks.check(root);

        assertThat(outcome.problems()).isEmpty();
        assertThat(outcome.generated()).isEqualTo(4);
        assertThat(Files.readString(root.resolve("docs/store.md"))).contains("from the threads results",
                "| get | 3,000,000 | Chronicle Map |");
    }

    @Test
    void aChangedFigureFailsTheCheckWithTheLineThatDiffers() throws Exception {
        publish("docs/store.md", "store", "docs/runs/" + RUN);
        Path page = root.resolve("docs/store.md");
        String text = Files.readString(page);
        String edited = text.replaceFirst("\\| BitCask MAPPED \\| [0-9,]+", "| BitCask MAPPED | 9,999,999");
        assertThat(edited).isNotEqualTo(text);
        Files.writeString(page, edited);

        PublishedBlocks.Outcome outcome = PublishedBlocks.check(root);

        assertThat(outcome.problems()).singleElement().asString()
                .startsWith("docs/store.md, store block: differs from what docs/runs/" + RUN + " gives; line ")
                .contains("9,999,999");
    }

    @Test
    void aChartThatIsNotWhatTheRunDrawsFails() throws Exception {
        publish("README.md", "headline", "docs/runs/" + RUN);
        assertThat(PublishedBlocks.check(root, true).problems()).isEmpty();
        Path chart = root.resolve("docs/img/" + Headline.CHART);
        Files.writeString(chart, Files.readString(chart).replace("LMDB", "LMDX"));

        assertThat(PublishedBlocks.check(root).problems()).isEmpty();
        assertThat(PublishedBlocks.check(root, true).problems()).singleElement().asString()
                .isEqualTo("README.md, headline block: its chart " + Headline.CHART + " is not what the run draws"
                        + " (regenerate the block)");
    }

    @Test
    void aBlockFromARunThatIsNotCommittedFails() throws Exception {
        publish("docs/store.md", "store", "results/" + RUN);

        assertThat(PublishedBlocks.check(root).problems()).singleElement().asString()
                .contains("comes from results/" + RUN + ", which is not a run committed under docs/runs");
    }

    @Test
    void theMarkedPlaceholderIsAcceptedAndNothingElseWithoutARun() throws Exception {
        String placeholder = Docs.placeholder("headline", "README.md");
        Files.writeString(root.resolve("README.md"), "# Readme\n\n" + placeholder + "\n");
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/store.md"), Docs.placeholder("store", "docs/store.md") + "\n");

        PublishedBlocks.Outcome ok = PublishedBlocks.check(root);
        assertThat(ok.problems()).isEmpty();
        assertThat(ok.placeholders()).isEqualTo(2);
        assertThat(placeholder).contains(Docs.NO_RUN, "archive results/<run>",
                "docs docs/runs/<run> README.md --images docs/img");

        // Stale figures or a hand-edited placeholder are not the marked state.
        Files.writeString(root.resolve("docs/store.md"), Docs.placeholder("store", "docs/store.md")
                .replace("No committed run yet", "No run yet") + "\n");
        Files.writeString(root.resolve("README.md"), "<!-- generated:headline begin -->\n| get | 2,130,811 |\n"
                + "<!-- generated:headline end -->\n");
        assertThat(PublishedBlocks.check(root).problems()).hasSize(2).anySatisfy(p -> assertThat(p)
                .startsWith("README.md, headline block: does not name the command"))
                .anySatisfy(p -> assertThat(p).contains("not the placeholder"));
    }

    @Test
    void theDocsCommandTakesARunFolderAndRefusesAResultsRoot() throws Exception {
        Path results = root.resolve("results");
        RunFolders.create(results, "empty");
        Path page = Files.writeString(root.resolve("page.md"), "<!-- generated:store begin -->\n<!-- generated:store end -->\n");
        var cli = ReportCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        cli.setOut(new PrintWriter(new StringWriter()));

        assertThat(cli.execute("docs", results.toString(), page.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("is not a run folder", "it is a results root", "docs/runs/<run>");
        // A committed run reads as any run folder: its JSON is compressed.
        assertThat(cli.execute("docs", committed.toString(), page.toString())).isZero();
        assertThat(Files.readString(page)).contains("- run: `" + RUN + "`", "#### Single thread, every store: get");
    }
}
