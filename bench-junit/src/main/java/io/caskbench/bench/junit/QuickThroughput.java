package io.caskbench.bench.junit;

import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.util.ListStatistics;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The light form, for code that has no JMH benchmark: measures the throughput of lambdas in the
 * test's own thread and JVM, and returns a {@link ScoreTable} that {@link ThroughputAssertions}
 * accepts like a JMH one.
 *
 * <pre>{@code
 * long[] i = {0};
 * ScoreTable scores = QuickThroughput.create()
 *         .add("put", bh -> db.put("object" + (i[0]++ % 10_000) + ".png", value))
 *         .add("get", bh -> bh.consume(db.get("object" + (i[0]++ % 10_000) + ".png")))
 *         .run();
 * ThroughputAssertions.assertThat(scores).benchmark("put").isAtLeast(20_000);
 * }</pre>
 *
 * <p>What it does to stay honest, unlike a loop timed once with {@code currentTimeMillis}:
 * <ul>
 *   <li>warm-up iterations that are thrown away, so the JIT has compiled the code before it is timed;</li>
 *   <li>several measured repetitions of fixed length, reported as mean, standard deviation, range
 *       and the half-width of the 99.9% confidence interval (Student's t, as JMH computes it);</li>
 *   <li>cases interleaved repetition by repetition, so a change of machine load during the run
 *       hits every case alike and ratios between them stay fair;</li>
 *   <li>a JMH {@link Blackhole} handed to the operation: whatever it computes must go into it
 *       (or into the store under test), so the JIT cannot drop the work as dead code;</li>
 *   <li>the clock is read only every batch of calls, a batch growing until it lasts at least
 *       100 µs, so reading the clock does not dominate nanosecond operations.</li>
 * </ul>
 *
 * <p>What it does not do, and JMH does: fork a fresh JVM (the scores depend on what ran before
 * in the test JVM), run several threads, or stop the JIT from hoisting an operation whose inputs
 * never change. Vary the inputs (a counter, as above) and prefer {@link JmhThroughput} for
 * anything that matters. One call of the operation counts as one operation. Not thread-safe.
 */
public final class QuickThroughput {

    /** Confidence level of the reported error, the one JMH uses. */
    static final double CONFIDENCE = 0.999;

    /** A batch of calls shorter than this doubles, so the clock is read rarely. */
    private static final long MIN_BATCH_NANOS = 100_000;
    private static final int MAX_BATCH = 1 << 24;

    /** One operation to measure; called many times. */
    @FunctionalInterface
    public interface Operation {
        /** Performs one operation; feed every result that is not stored elsewhere to {@code blackhole}. */
        void run(Blackhole blackhole) throws Exception;
    }

    private static final class Case {
        final String name;
        final Map<String, String> params;
        final Operation operation;
        Blackhole blackhole;
        double[] samples;
        int batch;

        Case(String name, Map<String, String> params, Operation operation) {
            this.name = name;
            this.params = params;
            this.operation = operation;
        }
    }

    private final List<Case> cases = new ArrayList<>();
    private int warmupIterations = 5;
    private Duration warmupTime = Duration.ofMillis(200);
    private int repetitions = 5;
    private Duration repetitionTime = Duration.ofMillis(200);
    private PrintStream out = System.out;

    private QuickThroughput() {
    }

    /**
     * An empty measurement with the defaults: 5 warm-up iterations of 200 ms and 5 measured
     * repetitions of 200 ms per case. On a busy machine the JIT needs that long before a lambda
     * that encodes and stores a record reaches its steady speed.
     */
    public static QuickThroughput create() {
        return new QuickThroughput();
    }

    /** Warm-up iterations per case and the length of each. */
    public QuickThroughput warmup(int iterations, Duration each) {
        if (iterations < 0) {
            throw new IllegalArgumentException("warm-up iterations < 0: " + iterations);
        }
        this.warmupIterations = iterations;
        this.warmupTime = JmhThroughput.positive(each);
        return this;
    }

    /**
     * Measured repetitions per case and the length of each; at least 3 for an error estimate
     * (JMH computes none from fewer).
     */
    public QuickThroughput measurement(int repetitions, Duration each) {
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions < 1: " + repetitions);
        }
        this.repetitions = repetitions;
        this.repetitionTime = JmhThroughput.positive(each);
        return this;
    }

    /** Adds a case without parameters. */
    public QuickThroughput add(String name, Operation operation) {
        return add(name, Map.of(), operation);
    }

    /** Adds a case whose row carries {@code params}, so param assertions can compare cases. */
    public QuickThroughput add(String name, Map<String, String> params, Operation operation) {
        cases.add(new Case(Objects.requireNonNull(name, "name"), new TreeMap<>(params),
                Objects.requireNonNull(operation, "operation")));
        return this;
    }

    /** Where progress and the summary go (default {@code System.out}); null prints nothing. */
    public QuickThroughput printTo(PrintStream stream) {
        this.out = stream;
        return this;
    }

    /**
     * Warms up and measures every case, interleaved, and returns one row per case in ops/s.
     *
     * @throws IllegalStateException when an operation throws
     */
    public ScoreTable run() {
        if (cases.isEmpty()) {
            throw new IllegalStateException("nothing to measure: add a case first");
        }
        for (Case c : cases) {
            c.blackhole = new Blackhole(
                    "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
            c.samples = new double[repetitions];
            c.batch = 1;
        }
        for (int w = 0; w < warmupIterations; w++) {
            for (Case c : cases) {
                double rate = measureOnce(c, warmupTime.toNanos());
                print("warm-up %d/%d  %-24s %,16.1f ops/s%n", w + 1, warmupIterations, label(c), rate);
            }
        }
        for (int r = 0; r < repetitions; r++) {
            for (Case c : cases) {
                c.samples[r] = measureOnce(c, repetitionTime.toNanos());
                print("rep     %d/%d  %-24s %,16.1f ops/s%n", r + 1, repetitions, label(c), c.samples[r]);
            }
        }
        List<Score> rows = new ArrayList<>();
        for (Case c : cases) {
            c.blackhole.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
            Score s = summarize(c.name, c.params, c.samples);
            rows.add(s);
            ListStatistics stats = new ListStatistics(c.samples);
            print("%-24s %,16.1f ± %,.1f ops/s (99.9%% CI), sd %.1f%%, min %,.1f, max %,.1f, %d x %d ms%n",
                    label(c), s.score(), s.error(), 100 * stats.getStandardDeviation() / stats.getMean(),
                    stats.getMin(), stats.getMax(), repetitions, repetitionTime.toMillis());
        }
        return ScoreTable.of(rows);
    }

    /**
     * The row for a case from its per-repetition rates in ops/s: their mean, and the half-width
     * of the 99.9% confidence interval of that mean ({@code NaN} below 3 repetitions, as in JMH).
     */
    public static Score summarize(String name, Map<String, String> params, double[] opsPerSecond) {
        if (opsPerSecond.length == 0) {
            throw new IllegalArgumentException("no samples for " + name);
        }
        ListStatistics stats = new ListStatistics(opsPerSecond);
        double error = stats.getMeanErrorAt(CONFIDENCE);
        return Score.of(name, params, stats.getMean(), error, "ops/s");
    }

    /** Calls the operation in batches until {@code budgetNanos} have passed; returns ops/s. */
    private static double measureOnce(Case c, long budgetNanos) {
        Operation op = c.operation;
        Blackhole bh = c.blackhole;
        long ops = 0;
        long last = 0;
        long started = System.nanoTime();
        try {
            do {
                int batch = c.batch;
                for (int i = 0; i < batch; i++) {
                    op.run(bh);
                }
                ops += batch;
                long now = System.nanoTime() - started;
                if (now - last < MIN_BATCH_NANOS && batch < MAX_BATCH) {
                    c.batch = batch << 1;
                }
                last = now;
            } while (last < budgetNanos);
        } catch (Exception e) {
            throw new IllegalStateException("operation " + label(c) + " failed after " + ops + " calls: " + e, e);
        }
        return ops * 1e9 / last;
    }

    private static String label(Case c) {
        return c.params.isEmpty() ? c.name : c.name + c.params;
    }

    private void print(String format, Object... args) {
        if (out != null) {
            out.printf(Locale.ROOT, format, args);
        }
    }
}
