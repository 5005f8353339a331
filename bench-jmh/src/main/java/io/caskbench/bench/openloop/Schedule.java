package io.caskbench.bench.openloop;

/**
 * One worker thread's intended start times: operation {@code i} is due at {@code origin + i * interval},
 * never later because an earlier one ran late. Immutable.
 *
 * <p>The interval is kept as a fraction of a nanosecond and each due time is computed from the origin,
 * not by adding intervals, and rounded to the nearest nanosecond, so rounding never accumulates: over any
 * span the thread is asked for exactly the operations the rate gives.
 *
 * @param origin when operation 0 is due, in {@link Clock#nanoTime()} nanoseconds
 * @param intervalNanos nanoseconds between two intended starts; positive
 */
public record Schedule(long origin, double intervalNanos) {

    /** Checks the interval. */
    public Schedule {
        if (!(intervalNanos > 0) || Double.isInfinite(intervalNanos)) {
            throw new IllegalArgumentException("interval must be positive, was " + intervalNanos);
        }
    }

    /**
     * Thread {@code thread}'s schedule when {@code threads} threads share {@code ratePerSecond} operations
     * per second from {@code origin}: each thread runs at {@code rate / threads}, and the threads are offset
     * by {@code 1 / rate} from one another, so the arrivals of all threads together are evenly spaced.
     */
    public static Schedule forThread(long origin, double ratePerSecond, int threads, int thread) {
        if (!(ratePerSecond > 0) || threads < 1 || thread < 0 || thread >= threads) {
            throw new IllegalArgumentException("rate " + ratePerSecond + ", thread " + thread + " of " + threads);
        }
        double spacing = 1e9 / ratePerSecond;
        return new Schedule(origin + Math.round(thread * spacing), spacing * threads);
    }

    /** When operation {@code i} (0, 1, ...) is due, to the nearest nanosecond. */
    public long due(long i) {
        return origin + Math.round(i * intervalNanos);
    }

    /** The index of the first operation due at or after {@code time}. */
    public long firstAtOrAfter(long time) {
        long i = Math.max(0, (long) Math.ceil((time - origin) / intervalNanos));
        while (i > 0 && due(i - 1) >= time) {
            i--;
        }
        while (due(i) < time) {
            i++;
        }
        return i;
    }

    /** How many operations are due in {@code [from, to)}. */
    public long countBetween(long from, long to) {
        return to <= from ? 0 : firstAtOrAfter(to) - firstAtOrAfter(from);
    }
}
