package io.caskbench.bench.store.overwrite;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/** Drives the load for one interval at a time and says what it did: the time series' unit. */
public interface IntervalLoad {

    /**
     * What one interval did.
     *
     * @param puts put latencies in nanoseconds
     * @param gets get latencies in nanoseconds
     * @param seconds the interval's measured length
     * @param sink the sum of what the operations returned, for a {@code Blackhole}
     */
    record Interval(Histogram puts, Histogram gets, double seconds, long sink) {
    }

    /** Drives the load for {@code length} and returns what it measured. */
    Interval run(Duration length);

    /** Whether latencies are timed from each operation's intended start (open loop) or its actual start. */
    boolean openLoop();
}
