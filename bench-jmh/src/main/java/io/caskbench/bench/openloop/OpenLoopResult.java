package io.caskbench.bench.openloop;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * What one open-loop run measured: a latency histogram per kind of operation and one of all of them (in
 * nanoseconds, each sample timed from the operation's intended start), the rate asked and the rate done.
 * Immutable: the histograms handed out are copies.
 */
public final class OpenLoopResult {

    private final Map<OpType, Histogram> byType;
    private final Histogram all;
    private final double offered;
    private final double achieved;
    private final long unfinished;
    private final long sink;

    /**
     * A result; the driver makes it.
     *
     * @param byType each drawn kind's histogram (nanoseconds)
     * @param offered operations per second asked
     * @param achieved operations per second done (see {@link #achieved()})
     * @param unfinished operations due in the measured period that were not started before the grace ran out
     * @param sink the sum of what the operations returned
     */
    OpenLoopResult(Map<OpType, Histogram> byType, double offered, double achieved, long unfinished, long sink) {
        this.byType = Collections.unmodifiableMap(new EnumMap<>(byType));
        Histogram sum = new Histogram(3);
        byType.values().forEach(sum::add);
        this.all = sum;
        this.offered = offered;
        this.achieved = achieved;
        this.unfinished = unfinished;
        this.sink = sink;
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

    /** Operations recorded (due in the measured period and completed). */
    public long count() {
        return all.getTotalCount();
    }

    /** Operations recorded of one kind. */
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
     * Operations per second done: the operations recorded over the measured period, or over the time from
     * its start to the last of them completing when that is longer (a run that fell behind). Below
     * {@link #offered()} by more than a rounding, the system did not keep up and the percentiles describe
     * a queue that was growing.
     */
    public double achieved() {
        return achieved;
    }

    /** Operations due in the measured period that the grace ran out on; 0 in a run that kept up. */
    public long unfinished() {
        return unfinished;
    }

    /** The sum of what the operations returned; hand it to a {@code Blackhole}. */
    public long sink() {
        return sink;
    }
}
