package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.RunFolders;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

/** What a run folder keeps as rows finish, when the run completes, and when it is interrupted. */
class RunFolderTest {

    @TempDir
    Path root;

    @Test
    void latestMovesOnlyOnceARowIsWrittenAndEveryRowIsOnDiskAtOnce() throws Exception {
        Path earlier = RunFolders.create(root, "store", Clock.systemUTC());
        Path dir = RunFolders.createUnpointed(root, "store", Clock.systemUTC());
        RunFolder folder = new RunFolder(dir, root, 2, 3);
        folder.begin();
        assertThat(RunFolders.partial(dir)).hasValueSatisfying(l -> assertThat(l).startsWith("running"));
        folder.rows("store", List.of());
        assertThat(RunFolders.latest(root)).as("no row yet").contains(earlier);

        folder.rows("store", List.of(row("get", 100)));
        assertThat(RunFolders.latest(root)).contains(dir);
        assertThat(Files.readString(dir.resolve("store.json"))).contains("Fake.get");
        folder.rows("store", List.of(row("put", 200)));
        folder.runDone();
        assertThat(Files.readString(dir.resolve("store.json"))).contains("Fake.get", "Fake.put");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left")
                    .containsExactlyInAnyOrder("store.json", RunFolders.PARTIAL);
        }
        assertThat(folder.rowsOf("store")).hasSize(2);

        folder.finish();
        assertThat(RunFolders.partial(dir)).isEmpty();
        assertThat(folder.interrupt(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .as("a complete run has nothing to keep").isFalse();
    }

    @Test
    void anInterruptMarksTheFolderAndSaysHowFarItGot() {
        Path dir = RunFolders.createUnpointed(root, "store", Clock.systemUTC());
        RunFolder folder = new RunFolder(dir, root, 9, 40);
        folder.begin();
        folder.rows("store", List.of(row("get", 1)));
        folder.runDone();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertThat(folder.interrupt(new PrintStream(bytes, true, StandardCharsets.UTF_8))).isTrue();
        assertThat(folder.interrupted()).isTrue();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("interrupted: 1 of 40 rows kept in " + dir
                + " (interrupted after 1 of 9 runs; JMH's \"VM prematurely exited\" lines that may follow");
        assertThat(RunFolders.partial(dir)).contains("interrupted after 1 of 9 runs (1 of 40 rows kept)");
        assertThat(folder.interrupt(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .as("once").isFalse();
    }

    @Test
    void aRunThatEndsWithoutRowsStaysMarkedAndLatestStaysPut() {
        Path earlier = RunFolders.create(root, "store", Clock.systemUTC());
        Path dir = RunFolders.createUnpointed(root, "store", Clock.systemUTC());
        RunFolder folder = new RunFolder(dir, root, 1, 1);
        folder.begin();
        folder.finish();
        assertThat(RunFolders.partial(dir)).contains("finished without a single row");
        assertThat(RunFolders.latest(root)).contains(earlier);
    }

    @Test
    void fewerThanFiveForksMakeTheVerdictsIndicative() {
        assertThat(BenchMain.forks(List.of(row("get", 1), row("put", 2))))
                .isEqualTo("1 per row at the fewest: verdicts are indicative (published verdicts need 5)");
    }

    /** A one-fork, one-iteration throughput result of benchmark {@code Fake.<method>}. */
    static RunResult row(String method, double opsPerSecond) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, TimeValue.seconds(1), 1);
        IterationParams measure = new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);
        BenchmarkParams params = new BenchmarkParams("io.caskbench.Fake." + method, "generated", false, 1, new int[] {1},
                List.of(), 1, 0, warmup, measure, Mode.Throughput, new WorkloadParams(), TimeUnit.SECONDS, 1, "java",
                List.of(), "17", "vm", "1", "1.37", TimeValue.minutes(10));
        IterationResult iteration = new IterationResult(params, measure, new IterationResultMetaData(1, 1));
        iteration.addResult(new ThroughputResult(ResultRole.PRIMARY, method, opsPerSecond, 1_000_000_000L, TimeUnit.SECONDS));
        return new RunResult(params, List.of(new BenchmarkResult(params, List.of(iteration))));
    }
}
