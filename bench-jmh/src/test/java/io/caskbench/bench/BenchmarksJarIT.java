package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.RunFolders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded {@code benchmarks.jar} as a user would, as a process of its own, after the package
 * phase built it: JMH's own command line (help, listings, a regex over every suite) and a suite run that
 * gets a results folder of its own.
 */
class BenchmarksJarIT {

    private static final Path JAR = Path.of(System.getProperty("caskbench.benchmarksJar", "target/benchmarks.jar"));

    @TempDir
    Path dir;

    /** A finished process: exit code and everything it printed. */
    private record Run(int code, String output) {
    }

    @Test
    void helpIsJmhsHelp() throws Exception {
        Run help = java(List.of(), "-h");
        assertThat(help.code()).isZero();
        assertThat(help.output()).contains("Usage: java -jar ... [regexp*] [options]", "-prof <profiler>", "-rf <type>")
                .doesNotContain("caskbench suite");
    }

    @Test
    void listingsCoverEverySuite() throws Exception {
        Run list = java(List.of(), "-l");
        assertThat(list.code()).isZero();
        assertThat(list.output()).contains("Benchmarks:", "io.caskbench.bench.store.single.PeersSingleThread.get",
                "io.caskbench.bench.files.ops.FileCopy.copy", "io.caskbench.bench.open.OpenBench",
                "io.caskbench.bench.store.threads.GroupCommit.gang");

        Run withParams = java(List.of(), "-lp", "FileCopy");
        assertThat(withParams.code()).isZero();
        assertThat(withParams.output()).contains("io.caskbench.bench.files.ops.FileCopy.copy", "param \"copySize\" = {1048576, 2097152}")
                .doesNotContain("PeersSingleThread");

        Run profilers = java(List.of(), "-lprof");
        assertThat(profilers.code()).isZero();
        assertThat(profilers.output()).contains("gc:", "stack:");
    }

    @Test
    void aRegexRunsFromAnySuiteAsPlainJmhWithoutAResultsFolder() throws Exception {
        Path json = dir.resolve("copy.json");
        Run run = java(List.of("-Djmh.ignoreLock=true"), "FileCopy", "-f", "1", "-wi", "0", "-i", "1",
                "-p", "copySize=1048576", "-foe", "true", "-rf", "json", "-rff", json.toString());
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(run.output()).contains("# Benchmark: io.caskbench.bench.files.ops.FileCopy.copy")
                .doesNotContain("[caskbench]", "caskbench suite");
        assertThat(Files.readString(json)).contains("\"benchmark\" : \"io.caskbench.bench.files.ops.FileCopy.copy\"");
        assertThat(dir.resolve("results")).doesNotExist();

        Run none = java(List.of("-Djmh.ignoreLock=true"), "NoSuchBenchmarkAnywhere");
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.output()).contains("No matching benchmarks");
    }

    @Test
    void aSuiteRunWritesANewFolderAndAnnouncesEachJmhRun() throws Exception {
        Path results = dir.resolve("results");
        List<String> props = List.of("-Djmh.ignoreLock=true", "-Dcaskbench.results=" + results, "-Dcaskbench.suites=files",
                "-Dcaskbench.profile=smoke", "-Dcaskbench.include=MetadataLookup.existsAbsent");
        Run first = java(props);
        assertThat(first.code()).as(first.output()).isZero();
        assertThat(first.output()).containsPattern("\\[caskbench\\] 0 of 1 rows done; run 1 of 1 \\(files: "
                + "MetadataLookup\\.existsAbsent\\), fork 1 of 1 \u2014 about \\d+ s left in the whole run")
                .doesNotContain("# Run progress:");
        Path firstRun = RunFolders.latest(results).orElseThrow();
        assertThat(firstRun.getFileName().toString()).endsWith("-files");
        assertThat(firstRun.resolve("files.json")).content().contains("MetadataLookup.existsAbsent");
        assertThat(firstRun.resolve("index.html")).content().contains("<svg");

        Run second = java(props);
        assertThat(second.code()).as(second.output()).isZero();
        Path secondRun = RunFolders.latest(results).orElseThrow();
        assertThat(secondRun).isNotEqualTo(firstRun);
        assertThat(firstRun.resolve("files.json")).as("the first run is still there").exists();
    }

    private Run java(List<String> jvmArgs, String... args) throws IOException, InterruptedException {
        assertThat(JAR).as("the shaded jar; failsafe runs after package").isRegularFile();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-jar");
        cmd.add(JAR.toAbsolutePath().toString());
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "jar", ".log");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        // Generous: the machine is shared; the bound only keeps a stuck process from hanging the build.
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd + "\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
