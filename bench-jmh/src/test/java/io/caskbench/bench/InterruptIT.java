package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.caskbench.report.input.RunFolders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interrupts a real suite run of the shaded jar, as Ctrl-C or a {@code kill} would, once its first row is
 * written, and checks what is kept: every finished row in the suite's JSON, the folder marked partial,
 * {@code results/latest} pointing at it, a report that says "partial run", the message naming the
 * folder, and no benchmark fork left running.
 */
class InterruptIT {

    private static final Path JAR = Path.of(System.getProperty("caskbench.benchmarksJar", "target/benchmarks.jar"));

    /** Bound on each wait: generous on a shared machine, and only a stuck process ever reaches it. */
    private static final long WAIT_SECONDS = 120;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"INT", "TERM"})
    void anInterruptedRunKeepsEveryFinishedRow(String signal) throws Exception {
        assertThat(JAR).as("the shaded jar; failsafe runs after package").isRegularFile();
        assumeFalse(signal.equals("INT") && interruptIgnored(),
                "skipped: this build ignores SIGINT (started in the background, as with '&' or nohup), so its child would too");
        Path results = dir.resolve("results");
        Path log = dir.resolve("run.log");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djmh.ignoreLock=true", "-Dcaskbench.results=" + results, "-Dcaskbench.suites=store",
                "-Dcaskbench.profile=smoke", "-jar", JAR.toAbsolutePath().toString());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        List<ProcessHandle> forks = new ArrayList<>();
        try {
            Path run = awaitFirstRow(results, p, log);
            forks.addAll(p.descendants().toList());
            new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start().waitFor();
            assertThat(p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("exits after SIG%s", signal).isTrue();
            String output = Files.readString(log, StandardCharsets.UTF_8);

            assertThat(output).containsPattern("interrupted: \\d+ of \\d+ rows kept in "
                    + java.util.regex.Pattern.quote(run.toString()));
            assertThat(RunFolders.partial(run)).hasValueSatisfying(line -> assertThat(line).startsWith("interrupted after"));
            assertThat(Files.readString(run.resolve("store.json"))).contains("\"benchmark\" : \"io.caskbench.bench.store.single.PeersSingleThread.get\"");
            assertThat(RunFolders.latest(results)).contains(run);
            assertThat(run.resolve("index.html")).content().contains("partial run");
            assertThat(run.resolve("store-comparison.txt")).as("a partial suite gets no comparison").doesNotExist();
            for (ProcessHandle fork : forks) {
                fork.onExit().get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertThat(fork.isAlive()).as("fork %s", fork.pid()).isFalse();
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /**
     * Whether this process ignores SIGINT: a shell starts a background job with SIGINT ignored, a JVM then
     * installs no handler, and a child inherits the setting, so Ctrl-C could never reach the run.
     */
    private static boolean interruptIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0; // SIGINT is 2
            }
        }
        return false;
    }

    /** Waits until the run's folder has its first row written, and returns the folder. */
    private static Path awaitFirstRow(Path results, Process p, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            Optional<Path> run = written(results);
            if (run.isPresent()) {
                return run.get();
            }
            if (!p.isAlive()) {
                throw new AssertionError("ended before its first row:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no row within " + WAIT_SECONDS + " s:\n" + Files.readString(log, StandardCharsets.UTF_8));
    }

    private static Optional<Path> written(Path results) throws IOException {
        if (!Files.isDirectory(results)) {
            return Optional.empty();
        }
        try (Stream<Path> runs = Files.list(results)) {
            return runs.filter(r -> !r.getFileName().toString().equals(RunFolders.LATEST))
                    .filter(r -> Files.isRegularFile(r.resolve("store.json"))).findFirst();
        }
    }
}
