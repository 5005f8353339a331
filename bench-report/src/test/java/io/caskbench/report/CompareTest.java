package io.caskbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
        assertThat(fail.code).isEqualTo(1);
        assertThat(fail.out).contains("FAIL: 2 benchmarks worse than 5.0% (--fail-above)")
                .containsPattern("BitCaskSingleThreadBenchmark\\.get +backend=MAPPED +thrpt +ops/s +2,900,000 +100,000 +2,000,000 +100,000 +-31\\.0% +yes +regressed");

        Run pass = cli("compare", oldFile.toString(), newFile.toString(), "--fail-above", "40");
        assertThat(pass.code).isZero();
        assertThat(pass.out).contains("PASS: 0 benchmarks worse than 40.0%");

        Run strict = cli("compare", oldFile.toString(), newFile.toString(), "--fail-above", "3");
        assertThat(strict.code).as("a +3.1% change without error estimate counts against a 3% threshold").isEqualTo(1);
        assertThat(strict.out).contains("FAIL: 3 benchmarks");

        Run plain = cli("compare", oldFile.toString(), newFile.toString());
        assertThat(plain.code).as("without --fail-above the command only reports").isZero();
        assertThat(plain.out).contains("added", "removed", "unchanged");
    }

    @Test
    void comparesFoldersAndWarnsAboutDifferentMachines() throws IOException {
        Machine a = new Machine(2, "CPU A", 1L << 34, "V", "17", "/j", "vm", "Linux", "6", "amd64", "2025-01-01T00:00Z");
        Machine b = new Machine(8, "CPU B", 1L << 34, "V", "21", "/j", "vm", "Linux", "6", "amd64", "2025-01-02T00:00Z");
        a.writeTo(oldFile.getParent());
        b.writeTo(newFile.getParent());
        Run run = cli("compare", oldFile.getParent().toString(), newFile.getParent().toString());
        assertThat(run.code).isZero();
        assertThat(run.out).contains("2 x CPU A", "8 x CPU B", "warning: the runs come from different machines");
    }

    @Test
    void missingInputIsAUsageError() {
        Run run = cli("compare", dir.resolve("nope").toString(), newFile.toString());
        assertThat(run.code).isEqualTo(2);
        assertThat(run.err).contains("does not exist");
    }

    @Test
    void renderOfAMissingFolderFailsUnlessAskedToStartIt() {
        Path missing = dir.resolve("not-yet");
        Run plain = cli("render", missing.toString());
        assertThat(plain.code).isEqualTo(2);
        assertThat(plain.err).contains("no results folder");
        Run ifPresent = cli("render", "--if-present", missing.toString());
        assertThat(ifPresent.code).isZero();
        assertThat(missing.resolve("machine.json")).exists();
        assertThat(missing.resolve("index.html")).doesNotExist();
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

    /** The outcome of one CLI call. */
    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        CommandLine cl = ReportCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }
}
