package io.caskbench.bench.store.overwrite;

import java.time.Duration;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/** Drives the load for one interval at a time and says what it did: the time series' unit. */
public interface IntervalLoad {

    /**
     * What one interval did.
     *
     * @param puts put latencies in nanoseconds, censored puts included
     * @param gets get latencies in nanoseconds, censored gets included
     * @param censoredPuts puts due in the interval that were never started (open loop), recorded in
     *     {@code puts} at the interval's end minus their due time
     * @param censoredGets the same of gets
     * @param seconds the interval's measured length
     * @param sink the sum of what the operations returned, for a {@code Blackhole}
     */
    record Interval(Histogram puts, Histogram gets, long censoredPuts, long censoredGets, double seconds, long sink) {

        /** An interval that left no operation unstarted. */
        Interval(Histogram puts, Histogram gets, double seconds, long sink) {
            this(puts, gets, 0, 0, seconds, sink);
        }

        /** Puts done: those recorded less those censored. */
        long putsDone() {
            return puts.getTotalCount() - censoredPuts;
        }

        /** Gets done: those recorded less those censored. */
        long getsDone() {
            return gets.getTotalCount() - censoredGets;
        }
    }

    /** Drives the load for {@code length} and returns what it measured. */
    Interval run(Duration length);

    /** Whether latencies are timed from each operation's intended start (open loop) or its actual start. */
    boolean openLoop();

    /**
     * The latencies (nanoseconds) of the harness pass an open-loop load ran before its first interval, at
     * the same rate and threads with a 1 us operation: the floor of its figures; empty before the first
     * interval and for a closed-loop load.
     */
    default Optional<Histogram> harness() {
        return Optional.empty();
    }
}
