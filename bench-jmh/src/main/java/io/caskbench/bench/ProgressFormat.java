package io.caskbench.bench;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's own console output with the runner's {@link Progress} woven in: JMH's per-run line
 * ({@code # Run progress: ..., ETA ...}), which knows only the one row at hand, is replaced by the whole
 * run's line, which is printed again at every fork and, in a long fork, every {@link #REPEAT_NANOS} between
 * iterations; every finished iteration moves the estimate. JMH's
 * table at the end of each of its runs is left out, because each of those runs is one row; the runner
 * prints the suite's comparison instead.
 */
final class ProgressFormat implements OutputFormat {

    /** JMH's line before each fork: {@code # Fork: 2 of 3} or {@code # Warmup Fork: 1 of 1}. */
    private static final Pattern FORK = Pattern.compile("^# (?:Warmup )?Fork: (\\d+) of (\\d+)");

    /** Longest a fork goes without the progress line: long forks get it again between iterations. */
    static final long REPEAT_NANOS = 30_000_000_000L;

    private final OutputFormat jmh;
    private final Progress progress;
    private final LongSupplier nanos;
    /** When the progress line was last printed; JMH calls its format on one thread. */
    private long printed;

    ProgressFormat(OutputFormat jmh, Progress progress, LongSupplier nanos) {
        this.jmh = jmh;
        this.progress = progress;
        this.nanos = nanos;
        this.printed = nanos.getAsLong();
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        jmh.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
            IterationResult data) {
        jmh.iterationResult(benchParams, params, iteration, data);
        progress.iterationDone(nominalSeconds(benchParams, params));
        if (nanos.getAsLong() - printed >= REPEAT_NANOS) {
            printProgress();
        }
    }

    private void printProgress() {
        jmh.println(progress.line());
        printed = nanos.getAsLong();
    }

    /** The configured length of one iteration; single-shot iterations have a nominal one. */
    static double nominalSeconds(BenchmarkParams benchParams, IterationParams params) {
        return benchParams.getMode() == Mode.SingleShotTime ? RunEstimate.SINGLE_SHOT_SECONDS
                : params.getTime().convertTo(TimeUnit.MICROSECONDS) / 1e6;
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        jmh.startBenchmark(benchParams);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        jmh.endBenchmark(result);
    }

    @Override
    public void startRun() {
        jmh.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        // One row per JMH run here: its table would repeat the row's last line.
    }

    @Override
    public void print(String s) {
        jmh.print(s);
    }

    @Override
    public void println(String s) {
        if (s.startsWith("# Run progress:")) {
            printProgress();
            return;
        }
        jmh.println(s);
        Matcher fork = FORK.matcher(s);
        if (fork.find()) {
            progress.forkStarted(Integer.parseInt(fork.group(1)), Integer.parseInt(fork.group(2)));
            printProgress();
        }
    }

    @Override
    public void flush() {
        jmh.flush();
    }

    @Override
    public void close() {
        // JMH closes its format after each run; the runner's stream outlives every run.
        jmh.flush();
    }

    @Override
    public void verbosePrintln(String s) {
        jmh.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        jmh.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        jmh.write(b);
    }
}
