package io.caskbench.bench.openloop;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * What one open-loop run measured: a latency histogram per kind of operation and one of all of them (in
 * nanoseconds, each sample timed from the operation's intended start, and each operation the run never
 * started counted at the run's end: see {@link #unfinished()}), the rate asked and the rate done, what the
 * waits for due times spun, and, when the run had one, its harness pass. Immutable: the histograms handed
 * out are copies.
 */
public final class OpenLoopResult {

    private final Map<OpType, Histogram> byType;
    private final Map<OpType, Long> censored;
    private final Histogram all;
    private final double offered;
    private final double achieved;
    private final long sink;
    private final double spinCores;
    private final double spinAheadMicros;
    /** The harness pass run just before this one in the same JVM, or null. */
    private final OpenLoopResult harness;

    /**
     * A result; the driver makes it.
     *
     * @param byType each drawn kind's histogram (nanoseconds), censored operations included
     * @param censored per kind, the operations due in the measured period that were not started before the
     *     grace ran out, each recorded into its kind's histogram at the run's end minus its due time
     * @param offered operations per second asked
     * @param achieved operations per second done (see {@link #achieved()})
     * @param sink the sum of what the operations returned
     * @param spinCores cores spent spinning before due times, on average over the run (see {@link #spinCores()})
     * @param spinAheadMicros the threads' spin-ahead at the run's end, their mean, microseconds
     */
    OpenLoopResult(Map<OpType, Histogram> byType, Map<OpType, Long> censored, double offered, double achieved,
            long sink, double spinCores, double spinAheadMicros) {
        this(byType, censored, offered, achieved, sink, spinCores, spinAheadMicros, null);
    }

    private OpenLoopResult(Map<OpType, Histogram> byType, Map<OpType, Long> censored, double offered,
            double achieved, long sink, double spinCores, double spinAheadMicros, OpenLoopResult harness) {
        this.byType = Collections.unmodifiableMap(new EnumMap<>(byType));
        this.censored = censored.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(censored));
        Histogram sum = new Histogram(3);
        byType.values().forEach(sum::add);
        this.all = sum;
        this.offered = offered;
        this.achieved = achieved;
        this.sink = sink;
        this.spinCores = spinCores;
        this.spinAheadMicros = spinAheadMicros;
        this.harness = harness;
    }

    /** This result with {@code pass}, the harness pass run just before it in the same JVM. */
    OpenLoopResult withHarness(OpenLoopResult pass) {
        return new OpenLoopResult(byType, censored, offered, achieved, sink, spinCores, spinAheadMicros, pass);
    }

    /**
     * The harness pass run just before this one, in the same JVM, at the same rate, threads and schedule,
     * with a 1 us operation instead of the measured one ({@link OpenLoopDriver#runWithHarness}): the floor
     * of every percentile here. Empty for a run without one.
     */
    public Optional<OpenLoopResult> harness() {
        return Optional.ofNullable(harness);
    }

    /** The kinds of operation recorded, in {@link OpType} order. */
    public Set<OpType> types() {
        return byType.keySet();
    }

    /** A copy of one kind's histogram, in nanoseconds; empty when the kind was never drawn. */
    public Histogram histogram(OpType type) {
        Histogram h = byType.get(type);
        return h == null ? new Histogram(3) : h.copy();
    }

    /** A copy of the histogram of every operation, in nanoseconds. */
    public Histogram histogram() {
        return all.copy();
    }

    /** Samples in the histograms: the operations due in the measured period, completed or censored. */
    public long count() {
        return all.getTotalCount();
    }

    /** Samples of one kind, completed or censored. */
    public long count(OpType type) {
        Histogram h = byType.get(type);
        return h == null ? 0 : h.getTotalCount();
    }

    /** The latency at {@code percentile} (0..100) of every operation, in microseconds; NaN when none. */
    public double percentileMicros(double percentile) {
        return micros(all, percentile);
    }

    /** The latency at {@code percentile} (0..100) of one kind, in microseconds; NaN when none. */
    public double percentileMicros(OpType type, double percentile) {
        Histogram h = byType.get(type);
        return h == null ? Double.NaN : micros(h, percentile);
    }

    private static double micros(Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            return Double.NaN;
        }
        long ns = percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
        return ns / 1_000.0;
    }

    /** Operations per second asked of all threads together. */
    public double offered() {
        return offered;
    }

    /**
     * Operations per second done: the operations completed over the measured period, or over the time from
     * its start to the last of them completing when that is longer (a run that fell behind). Below
     * {@link #offered()} by more than a rounding, the system did not keep up and the percentiles describe
     * a queue that was growing.
     */
    public double achieved() {
        return achieved;
    }

    /**
     * Operations due in the measured period that the grace ran out on, before they started; 0 in a run that
     * kept up. Each is in the histograms, censored: recorded at the run's end (the grace's end) minus its due
     * time, a lower bound on what it would have waited, so that a run that fell far behind shows it in its
     * tail instead of leaving its slowest operations out.
     */
    public long unfinished() {
        return censored.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Operations of one kind the grace ran out on (see {@link #unfinished()}). */
    public long unfinished(OpType type) {
        return censored.getOrDefault(type, 0L);
    }

    /** The sum of what the operations returned; hand it to a {@code Blackhole}. */
    public long sink() {
        return sink;
    }

    /**
     * The cores the threads spent spinning before due times, on average from the first due time to the end
     * of the measured period: the driver's own cost in CPU, which the measured operations did not get.
     */
    public double spinCores() {
        return spinCores;
    }

    /** The threads' spin-ahead at the run's end, their mean, in microseconds. */
    public double spinAheadMicros() {
        return spinAheadMicros;
    }
}
