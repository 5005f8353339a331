package io.caskbench.report.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.OverwriteSeries;
import io.caskbench.report.input.RunArchive;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overwrite block from a committed run: a small run of the suite (three rows and their time series) is
 * archived under docs/runs, its block is written into docs/performance.md from the committed copy, and the
 * published-blocks check regenerates it, charts included, from what is committed.
 */
class OverwriteRunTest {

    private static final String RUN = "2026-11-26T12-00-00-overwrite";
    private static final String PAGE = "docs/performance.md";
    private static final List<String> FILES = List.of("machine.json", "overwrite.json", "overwrite-run.txt",
            "overwrite-bitcask_default-100-zipfian-full-101.csv", "overwrite-bitcask_tuned-100-zipfian-full-102.csv",
            "overwrite-rocksdb_default-100-zipfian-full-103.csv");

    @TempDir
    Path root;

    private Path run;
    private Path committed;

    @BeforeEach
    void archiveTheFixtureRun() throws Exception {
        run = Files.createDirectories(root.resolve("results/" + RUN));
        for (String f : FILES) {
            try (InputStream in = OverwriteRunTest.class.getResourceAsStream("/overwrite-run/" + f)) {
                assertThat(in).as(f).isNotNull();
                Files.copy(in, run.resolve(f));
            }
        }
        committed = RunArchive.archive(run, root.resolve(RunArchive.RUNS));
    }

    @Test
    void theArchiveKeepsTheTimeSeriesCompressedAndTheyReadBackTheSame() {
        for (String f : FILES.subList(3, FILES.size())) {
            assertThat(committed.resolve(f + ".gz")).exists();
            assertThat(committed.resolve(f)).doesNotExist();
        }
        assertThat(OverwriteSeries.list(committed)).isEqualTo(OverwriteSeries.list(run)).hasSize(3);
    }

    @Test
    void theBlockComesFromTheCommittedRunAndPassesThePublishedCheck() throws Exception {
        String invocation = "docs " + RunArchive.RUNS + "/" + RUN + " " + PAGE;
        Path page = Files.createDirectories(root.resolve("docs")).resolve("performance.md");
        String text = "# Performance\n\n<!-- generated:overwrite begin -->\n<!-- generated:overwrite end -->\n";
        Files.writeString(page, Docs.fill(text, committed, invocation,
                new Docs.Images(root.resolve("docs/img"), "img")).text());
        String block = Files.readString(page);

        assertThat(block).contains("- run: `" + RUN + "`", "(`" + invocation + "`)",
                "-Dcaskbench.suites=overwrite -Dcaskbench.profile=smoke",
                "| BITCASK_DEFAULT | 100 | zipfian | full speed (closed loop) | 180,000 | 1.38 | 1.21 | 2.10 | 0.95 | 0.92 |",
                "| 95.0 | 40.0 | 4 | 812 | 240 | 48.0 MiB |",
                "| 100 B, zipfian, full speed (closed loop) | 1.38 met | 2.10 met | 11.40 | 0.95 met |"
                        + " 48.0 MiB of at most 1024.0 MiB: met |");
        assertThat(block).doesNotContain("1.61 missed"); // the tuned store is shown, not judged
        for (String store : new String[] {"bitcask_default", "bitcask_tuned", "rocksdb_default"}) {
            String chart = "overwrite-" + RUN + "-" + store + ".svg";
            assertThat(root.resolve("docs/img/" + chart)).exists();
            assertThat(block).contains("(img/" + chart + ")");
        }

        PublishedBlocks.Outcome outcome = PublishedBlocks.check(root, true);
        assertThat(outcome.problems()).isEmpty();
        assertThat(outcome.generated()).isEqualTo(1);

        // A figure changed by hand is caught.
        Files.writeString(page, block.replace("| 1.38 met |", "| 1.18 met |"));
        assertThat(PublishedBlocks.check(root).problems()).singleElement().asString()
                .contains("differs from what " + RunArchive.RUNS + "/" + RUN + " gives");
    }
}
