package io.caskbench.report.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.input.RunRecord;
import io.caskbench.report.testing.SampleRuns;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The docs' tables come from a run's JSON: blocks are rewritten in place, and name run, machine, date and forks. */
class DocsTest {

    @Test
    void rewritesEveryGeneratedBlockAndKeepsTheProse(@TempDir Path tmp) throws Exception {
        Path results = SampleRuns.copy("sample-run", tmp);
        RunRecord.write(results, "store", "./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests");
        String doc = "# Store\n\nProse stays.\n\n<!-- generated:store begin -->\nold figures\n<!-- generated:store end -->\n"
                + "\nMore prose.\n\n<!-- generated:shm begin -->\n<!-- generated:shm end -->\n";

        String filled = Docs.fill(doc, results, "docs results docs/store.md", images(tmp)).text();

        assertThat(filled).startsWith("# Store\n\nProse stays.\n\n<!-- generated:store begin -->\n")
                .contains("\nMore prose.\n").doesNotContain("old figures");
        assertThat(filled).contains("- run: `sample-run`",
                "- command: `./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests`",
                "- machine and date: " + Machine.read(results).orElseThrow().oneLine(),
                "- forks per row: 1 (all 40 rows); fewer than 5 forks: every verdict is indicative",
                "#### Single thread, every store: get", "| store | ops/s | error | forks | x MAPPED |",
                "<!-- generated:store end -->", "#### Random 1-byte write, region 64KiB", "command: `not recorded`");
        // The targets have a block of their own on the page: the store block leaves them out (one figure per ratio).
        assertThat(filled).doesNotContain("Performance targets");
        // The run's 1000-thread rows have their own block (threads): the store block does not print them twice.
        assertThat(filled).doesNotContain("1000 threads x opsPerThread");
        // Filling again gives the same text: the blocks are found by their markers, not by position.
        assertThat(Docs.fill(filled, results, "docs results docs/store.md", images(tmp)).text()).isEqualTo(filled);
    }

    @Test
    void theCommandWritesAWholeFileOrRefusesAFileWithoutBlocks(@TempDir Path tmp) throws Exception {
        Path results = SampleRuns.copy("sample-run", tmp);
        Path whole = tmp.resolve("files-full.md");
        StringWriter err = new StringWriter();
        var cli = ReportCli.commandLine();
        cli.setErr(new PrintWriter(err));
        cli.setOut(new PrintWriter(new StringWriter()));
        assertThat(cli.execute("docs", results.toString(), whole.toString(), "--suite", "files", "--title", "Files"))
                .isZero();
        assertThat(Files.readString(whole, StandardCharsets.UTF_8)).startsWith("# Files\n\n<!-- generated:files begin -->")
                .contains("## SmallFileSetRead", "x mapped (95% interval)");

        Path prose = Files.writeString(tmp.resolve("prose.md"), "no blocks here\n");
        assertThatThrownBy(() -> Docs.fill(Files.readString(prose), results, "docs", images(tmp)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no <!-- generated");
        assertThat(cli.execute("docs", results.toString(), tmp.resolve("absent.md").toString())).isEqualTo(2);
    }

    @Test
    void aRunFolderFillsTheBlocksItHasResultsForAndAResultsRootIsRefused(@TempDir Path tmp) throws Exception {
        Path sample = SampleRuns.copy("sample-run", tmp);
        Path root = tmp.resolve("results");
        Path run = RunFolders.create(root, "store+files");
        try (var files = Files.list(sample)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, run.resolve(f.getFileName()));
            }
        }
        String targets = "<!-- generated:targets begin -->\nfrom an earlier targets run\n<!-- generated:targets end -->\n";
        Path doc = Files.writeString(tmp.resolve("store.md"),
                "<!-- generated:store begin -->\n<!-- generated:store end -->\n" + targets);
        var cli = ReportCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));

        // A block names one run: the root, whose latest run changes under it, is refused.
        assertThat(cli.execute("docs", root.toString(), doc.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("it is a results root");
        assertThat(cli.execute("docs", run.toString(), doc.toString())).as(err.toString()).isZero();
        // The store block is filled from the run; the targets block, which it lacks, stays as it was.
        assertThat(Files.readString(doc, StandardCharsets.UTF_8)).contains("#### Single thread, every store: get")
                .endsWith(targets);
        assertThat(out.toString()).contains("from " + run, "left as it was: the targets block");

        // A file none of whose blocks the run can fill is an error, and is not touched.
        Files.writeString(doc, targets);
        assertThat(cli.execute("docs", run.toString(), doc.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("no results in", "for any block (targets)");
        assertThat(Files.readString(doc, StandardCharsets.UTF_8)).isEqualTo(targets);
    }

    @Test
    void aBlockNamesItsPathsRelativeToTheCheckoutSoTheCheckCanRerunIt(@TempDir Path tmp) {
        Path cwd = Path.of("").toAbsolutePath();
        assertThat(DocsCommand.shown(cwd.resolve("docs/runs/2026-11-24T13-00-44-store"))).isEqualTo(
                "docs/runs/2026-11-24T13-00-44-store");
        assertThat(DocsCommand.shown(Path.of("README.md"))).isEqualTo("README.md");
        // A path outside the working directory stays as it was given.
        assertThat(DocsCommand.shown(tmp.resolve("x.md"))).isEqualTo(tmp.resolve("x.md").toString());
    }

    private static Docs.Images images(Path tmp) {
        return new Docs.Images(tmp.resolve("img"), "img");
    }
}
