package io.caskbench.bench.junit;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Runs the JMH benchmarks of one class from a test, in the test's own process through JMH's
 * {@link Runner} API, and returns their throughput as a {@link ScoreTable}.
 *
 * <pre>{@code
 * ScoreTable scores = JmhThroughput.of(GetBench.class)
 *         .param("backend", "MAPPED", "FILE_CHANNEL")
 *         .run();
 * ThroughputAssertions.assertThat(scores)
 *         .benchmark("get").param("backend", "MAPPED").isAtLeastTimes(1.5, "FILE_CHANNEL");
 * }</pre>
 *
 * <p>The benchmark class must be compiled with JMH's annotation processor
 * ({@code org.openjdk.jmh:jmh-generator-annprocess}) in the source set that holds it, so that its
 * {@code META-INF/BenchmarkList} is on the test class path.
 *
 * <p>The defaults are a quick option set, meant for a test that runs in seconds rather than for
 * publishable figures: Throughput mode in ops/s, one fork, 2 warm-up iterations of 200 ms and
 * 3 measured iterations of 300 ms, one thread. Each benchmark still runs in a forked JVM, so the
 * test's own JIT profile and heap do not leak into the scores. Every default can be overridden;
 * {@link #options(UnaryOperator)} reaches any other JMH option. Options set here take precedence
 * over the class's {@code @Warmup}, {@code @Measurement}, {@code @Fork} and {@code @BenchmarkMode}
 * annotations; {@code @Fork(jvmArgsAppend = ...)} still applies. Instances are not thread-safe.
 */
public final class JmhThroughput {

    private static final Duration LOCK_POLL = Duration.ofSeconds(2);

    private final Class<?> benchmarkClass;
    private final List<String> methods = new ArrayList<>();
    private final Map<String, String[]> params = new LinkedHashMap<>();
    private int forks = 1;
    private int warmupIterations = 2;
    private Duration warmupTime = Duration.ofMillis(200);
    private int measurementIterations = 3;
    private Duration measurementTime = Duration.ofMillis(300);
    private int threads = 1;
    private VerboseMode verbosity = VerboseMode.NORMAL;
    private Path resultJson;
    private UnaryOperator<ChainedOptionsBuilder> extra = UnaryOperator.identity();
    private Duration lockWait = Duration.ofMinutes(5);

    private JmhThroughput(Class<?> benchmarkClass) {
        this.benchmarkClass = Objects.requireNonNull(benchmarkClass, "benchmarkClass");
        if (benchmarkClass.getCanonicalName() == null) {
            throw new IllegalArgumentException(benchmarkClass + " has no canonical name: JMH cannot run it");
        }
    }

    /** A run of every {@code @Benchmark} method of {@code benchmarkClass} with the quick defaults. */
    public static JmhThroughput of(Class<?> benchmarkClass) {
        return new JmhThroughput(benchmarkClass);
    }

    /** Runs only these {@code @Benchmark} methods of the class (default: all of them). */
    public JmhThroughput methods(String... names) {
        for (String name : names) {
            methods.add(Objects.requireNonNull(name, "method name"));
        }
        return this;
    }

    /** Overrides the values of a {@code @Param} field (default: the values in its annotation). */
    public JmhThroughput param(String name, String... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values for param " + name);
        }
        params.put(Objects.requireNonNull(name, "name"), values.clone());
        return this;
    }

    /**
     * Number of forked JVMs per benchmark (default 1). At least one: a benchmark run inside the
     * test's JVM inherits its JIT profile and heap, and its scores depend on the tests before it.
     */
    public JmhThroughput forks(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("forks < 1: " + count);
        }
        this.forks = count;
        return this;
    }

    /** Warm-up iterations and the length of each (default 2 x 200 ms). */
    public JmhThroughput warmup(int iterations, Duration each) {
        this.warmupIterations = nonNegative(iterations, "warm-up iterations");
        this.warmupTime = positive(each);
        return this;
    }

    /**
     * Measured iterations and the length of each (default 3 x 300 ms). JMH estimates no error
     * from fewer than 3.
     */
    public JmhThroughput measurement(int iterations, Duration each) {
        if (iterations < 1) {
            throw new IllegalArgumentException("measurement iterations < 1: " + iterations);
        }
        this.measurementIterations = iterations;
        this.measurementTime = positive(each);
        return this;
    }

    /** Threads that run the benchmark method concurrently (default 1); keep it at or below the core count. */
    public JmhThroughput threads(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("threads < 1: " + count);
        }
        this.threads = count;
        return this;
    }

    /** How much JMH prints while it runs (default {@link VerboseMode#NORMAL}). */
    public JmhThroughput verbosity(VerboseMode mode) {
        this.verbosity = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** Also writes JMH's JSON result to {@code file}, e.g. for the caskbench report. */
    public JmhThroughput resultJson(Path file) {
        this.resultJson = Objects.requireNonNull(file, "file");
        return this;
    }

    /** Any other JMH option, applied after the ones above, e.g. {@code o -> o.jvmArgsAppend("-Xmx1g")}. */
    public JmhThroughput options(UnaryOperator<ChainedOptionsBuilder> customizer) {
        UnaryOperator<ChainedOptionsBuilder> before = extra;
        Objects.requireNonNull(customizer, "customizer");
        this.extra = o -> customizer.apply(before.apply(o));
        return this;
    }

    /**
     * How long {@link #run()} waits while another JMH run on this machine holds JMH's lock file
     * (default 5 minutes). JMH refuses to run beside another JMH run, as each would distort the
     * other's scores; waiting turns that refusal into queueing.
     */
    public JmhThroughput lockWait(Duration wait) {
        if (Objects.requireNonNull(wait, "wait").isNegative()) {
            throw new IllegalArgumentException("negative wait: " + wait);
        }
        this.lockWait = wait;
        return this;
    }

    /** The JMH options {@link #run()} would use. */
    public Options buildOptions() {
        String prefix = "^" + Pattern.quote(benchmarkClass.getCanonicalName() + ".");
        ChainedOptionsBuilder o = new OptionsBuilder()
                .mode(Mode.Throughput)
                .timeUnit(TimeUnit.SECONDS)
                .forks(forks)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.milliseconds(warmupTime.toMillis()))
                .measurementIterations(measurementIterations)
                .measurementTime(TimeValue.milliseconds(measurementTime.toMillis()))
                .threads(threads)
                .verbosity(verbosity)
                .shouldFailOnError(true);
        if (methods.isEmpty()) {
            o.include(prefix + "[^.]+$");
        } else {
            methods.forEach(m -> o.include(prefix + Pattern.quote(m) + "$"));
        }
        params.forEach(o::param);
        if (resultJson != null) {
            o.result(resultJson.toString()).resultFormat(ResultFormatType.JSON);
        }
        return extra.apply(o).build();
    }

    /**
     * Runs the benchmarks and returns their primary scores.
     *
     * @throws IllegalStateException when JMH fails, finds no benchmark, or a benchmark throws
     */
    public ScoreTable run() {
        Options options = buildOptions();
        long deadline = System.nanoTime() + lockWait.toNanos();
        Collection<RunResult> results;
        while (true) {
            try {
                results = new Runner(options).run();
                break;
            } catch (RunnerException e) {
                boolean locked = String.valueOf(e.getMessage()).contains("Unable to acquire the JMH lock");
                if (!locked || System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("JMH run of " + benchmarkClass.getName() + " failed: " + e.getMessage(), e);
                }
                pauseForLock();
            }
        }
        if (results.isEmpty()) {
            throw new IllegalStateException("JMH found no benchmark in " + benchmarkClass.getName()
                    + ": is jmh-generator-annprocess configured for the source set that holds it?");
        }
        return ScoreTable.fromJmh(results);
    }

    private static void pauseForLock() {
        try {
            Thread.sleep(LOCK_POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for another JMH run to finish", e);
        }
    }

    private static int nonNegative(int value, String what) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " < 0: " + value);
        }
        return value;
    }

    /** Checks an iteration length; JMH counts iteration time in whole milliseconds here. */
    static Duration positive(Duration d) {
        if (Objects.requireNonNull(d, "duration").toMillis() < 1) {
            throw new IllegalArgumentException("iteration time must be at least 1 ms: " + d);
        }
        return d;
    }
}
