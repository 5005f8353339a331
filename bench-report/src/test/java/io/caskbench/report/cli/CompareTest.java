package io.caskbench.report.cli;

import static io.caskbench.report.testing.SampleRuns.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.rule.Comparison;
import io.caskbench.report.testing.SampleRuns.Run;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compares the checked-in runs compare/old.json and compare/new.json. They hold, on purpose: a
 * throughput regression beyond the error (get -31%), a change within the error reported in another
 * unit (put, ops/s vs ops/ms), a time-per-op regression (+37%), a time-per-op improvement reported
 * in another unit (ms vs us), a row without error estimate (+3%), one removed and one added benchmark.
 */
class CompareTest {

    @TempDir
    Path dir;

    private Path oldFile;
    private Path newFile;

    @BeforeEach
    void copySamples() throws IOException {
        oldFile = copy("old.json", dir.resolve("old"));
        newFile = copy("new.json", dir.resolve("new"));
    }

    @Test
    void classifiesEveryKindOfChange() {
        Comparison c = Comparison.of(ResultFile.read(oldFile).results(), ResultFile.read(newFile).results());

        assertThat(c.rows()).hasSize(7);
        Comparison.Row get = row(c, "BitCaskSingleThreadBenchmark.get [thrpt] {backend=MAPPED}");
        assertThat(get.change()).isEqualTo(Comparison.Change.REGRESSED);
        assertThat(get.changePct()).isCloseTo(-31.03, org.assertj.core.data.Offset.offset(0.01));
        assertThat(get.worsePct()).isCloseTo(31.03, org.assertj.core.data.Offset.offset(0.01));

        Comparison.Row put = row(c, "BitCaskSingleThreadBenchmark.put");
        assertThat(put.change()).isEqualTo(Comparison.Change.UNCHANGED);
        assertThat(put.newScore()).isEqualTo(1_500_000.0);

        Comparison.Row buffered = row(c, "bufferedInputStream");
        assertThat(buffered.change()).as("slower per operation is worse").isEqualTo(Comparison.Change.REGRESSED);
        assertThat(buffered.worsePct()).isCloseTo(36.84, org.assertj.core.data.Offset.offset(0.01));

        Comparison.Row mapped = row(c, "WholeFileReadBenchmark.mapped");
        assertThat(mapped.change()).as("2000 us is faster than 3.1 ms").isEqualTo(Comparison.Change.IMPROVED);
        assertThat(mapped.newScore()).isEqualTo(2.0);

        assertThat(row(c, "c_mmap").change()).isEqualTo(Comparison.Change.UNCERTAIN);
        assertThat(row(c, "legacyScan").change()).isEqualTo(Comparison.Change.REMOVED);
        assertThat(row(c, "{backend=FILE_CHANNEL}").change()).isEqualTo(Comparison.Change.ADDED);
    }

    @Test
    void aBenchmarkMovedToAnotherPackageIsComparedWithItself() {
        Comparison c = Comparison.of(
                List.of(JmhResult.of("io.caskbench.bench.store.GroupCommit.gang", "thrpt", Map.of("sync", "NONE"),
                        Metric.of(100, 1, "ops/s"))),
                List.of(JmhResult.of("io.caskbench.bench.store.threads.GroupCommit.gang", "thrpt", Map.of("sync", "NONE"),
                        Metric.of(100, 1, "ops/s"))));
        assertThat(c.rows()).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("GroupCommit.gang [thrpt] {sync=NONE}");
            assertThat(r.change()).isEqualTo(Comparison.Change.UNCHANGED);
        });
    }

    @Test
    void verdictLineCountsAndNamesTheWorst() {
        Comparison c = Comparison.of(ResultFile.read(oldFile).results(), ResultFile.read(newFile).results());
        assertThat(c.verdict(Optional.empty()))
                .startsWith("verdict: 2 regressions, 1 improved, 1 unchanged within error, 1 without error estimate, 1 added, 1 removed")
                .contains("worst: WholeFileReadBenchmark.bufferedInputStream {fileSet=SMALL_800} 36.8% worse")
                .doesNotContain("PASS", "FAIL");
    }

    @Test
    void cliFailsAboveThresholdAndPassesBelowIt() {
        Run fail = cli("compare", oldFile.toString(), newFile.toString(), "--fail-above", "5");
        assertThat(fail.code()).isEqualTo(1);
        assertThat(fail.out()).contains("FAIL: 2 benchmarks worse than 5.0% (--fail-above)")
                .containsPattern("BitCaskSingleThreadBenchmark\\.get +backend=MAPPED +thrpt +ops/s +2,900,000 +100,000 +2,000,000 +100,000 +-31\\.0% +yes +regressed");

        Run pass = cli("compare", oldFile.toString(), newFile.toString(), "--fail-above", "40");
        assertThat(pass.code()).isZero();
        assertThat(pass.out()).contains("PASS: 0 benchmarks worse than 40.0%");

        Run strict = cli("compare", oldFile.toString(), newFile.toString(), "--fail-above", "3");
        assertThat(strict.code()).as("a +3.1% change without error estimate counts against a 3% threshold").isEqualTo(1);
        assertThat(strict.out()).contains("FAIL: 3 benchmarks");

        Run plain = cli("compare", oldFile.toString(), newFile.toString());
        assertThat(plain.code()).as("without --fail-above the command only reports").isZero();
        assertThat(plain.out()).contains("added", "removed", "unchanged");
    }

    @Test
    void comparesFoldersAndWarnsAboutDifferentMachines() throws IOException {
        Machine a = new Machine(2, "CPU A", 1L << 34, "V", "17", "/j", "vm", "Linux", "6", "amd64", "2025-01-01T00:00Z");
        Machine b = new Machine(8, "CPU B", 1L << 34, "V", "21", "/j", "vm", "Linux", "6", "amd64", "2025-01-02T00:00Z");
        a.writeTo(oldFile.getParent());
        b.writeTo(newFile.getParent());
        Run run = cli("compare", oldFile.getParent().toString(), newFile.getParent().toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("2 x CPU A", "8 x CPU B", "warning: the runs come from different machines");
    }

    @Test
    void missingInputIsAUsageError() {
        Run run = cli("compare", dir.resolve("nope").toString(), newFile.toString());
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("does not exist");
    }

    @Test
    void renderOfAMissingFolderFailsUnlessAskedToSkipIt() {
        Path missing = dir.resolve("not-yet");
        Run plain = cli("render", missing.toString());
        assertThat(plain.code()).isEqualTo(2);
        assertThat(plain.err()).contains("no results folder");
        Run ifPresent = cli("render", "--if-present", missing.toString());
        assertThat(ifPresent.code()).isZero();
        assertThat(ifPresent.out()).contains("no results yet");
        assertThat(missing).as("nothing is written where no run wrote").doesNotExist();
    }

    @Test
    void runsThatShareNoBenchmarkFailWhateverTheirVerdict() throws IOException {
        Path other = dir.resolve("other.json");
        Files.writeString(other, """
                [{"benchmark":"io.caskbench.bench.files.ops.FileCopy.copy","mode":"ss","params":{"copySize":"1048576"},
                  "primaryMetric":{"score":3.0,"scoreError":0.1,"scoreUnit":"ms/op"}}]
                """);
        Run run = cli("compare", oldFile.toString(), other.toString());
        assertThat(run.code()).as("neither a regression nor a usage error: a comparison that cannot show anything")
                .isEqualTo(3);
        assertThat(run.out()).contains("1 added, 6 removed", "matched: 0 of the old run's 6 benchmarks (0.0%)",
                "FAIL: only 0 of the old run's 6 benchmarks are in the new run (0.0%; --min-match asks for 50.0%)");
        assertThat(run.err()).contains("error: only 0 of the old run's 6 benchmarks");

        Run waived = cli("compare", oldFile.toString(), other.toString(), "--min-match", "0");
        assertThat(waived.code()).isZero();
    }

    @Test
    void theShareOfTheOldRunThatMatchesDecides() {
        // new.json has 5 of old.json's 6 benchmarks (83.3%) and one of its own
        Run enough = cli("compare", oldFile.toString(), newFile.toString(), "--min-match", "80");
        assertThat(enough.code()).isZero();
        assertThat(enough.out()).contains("matched: 5 of the old run's 6 benchmarks (83.3%)").doesNotContain("FAIL");
        Run tooFew = cli("compare", oldFile.toString(), newFile.toString(), "--min-match", "90");
        assertThat(tooFew.code()).isEqualTo(3);
        Comparison empty = Comparison.of(List.of(), ResultFile.read(newFile).results());
        assertThat(empty.tooFewMatched(0)).as("an empty baseline guards nothing").isPresent();
    }

    @Test
    void aResultsRootStandsForItsLatestRun() throws IOException {
        Path root = dir.resolve("results");
        Path first = RunFolders.create(root, "store");
        Files.copy(oldFile, first.resolve("store.json"));
        Path second = RunFolders.create(root, "store");
        Files.copy(newFile, second.resolve("store.json"));
        Run run = cli("compare", first.toString(), root.toString());
        assertThat(run.out()).contains("new: " + second, "2 regressions");
        assertThat(cli("render", root.toString()).out()).contains(second.resolve("index.html").toString());
        assertThat(first.resolve("index.html")).doesNotExist();
    }

    private static Comparison.Row row(Comparison c, String keyPart) {
        return c.rows().stream().filter(r -> r.key().contains(keyPart)).findFirst().orElseThrow();
    }

    private Path copy(String name, Path folder) throws IOException {
        Files.createDirectories(folder);
        Path target = folder.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("/compare/" + name)) {
            Files.copy(in, target);
        }
        return target;
    }
}
