package io.caskbench.bitcask.merge;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threading: {@link #begin} and {@link #end} from any foreground thread without a lock; the phase
 * switches and {@link #peek} and {@link #clear} from the merging thread only.
 *
 * <p>What reads and writes take while a merge runs, sampled: one operation in
 * {@value #SAMPLE_EVERY} is timed, and only while a merge is being paced. Each sample is filed
 * under the merge's phase, copying or resting, when the operation began and ended in that phase. One
 * that spans a switch is dropped: the operations longer than a rest would otherwise all land under
 * copying, and make copying look slower than it is.
 *
 * <p>A phase's time and count share one {@code long} (time in the high bits, count in the low), so
 * a read or a clear never sees a sample's time without its count.
 *
 * <p>When no merge is paced, an operation costs one volatile read here.
 */
public final class ForegroundLatency {

    /** One operation in this many is timed. */
    public static final int SAMPLE_EVERY = 32;
    /** The longest a sample counts for: about 68 s. */
    public static final long MAX_SAMPLE_NANOS = 1L << 36;
    /** Low bits of a tally that count its samples: a million, far more than one decision gathers. */
    private static final int COUNT_BITS = 20;

    /** True while a merge is paced; merging thread writes, any thread reads. */
    private volatile boolean watching;
    /** The current phase and when it began; merging thread writes, any thread reads. */
    private volatile Phase phase = new Phase(true, System.nanoTime());
    /** Sampled time and count while copying; any thread adds, merging thread reads and clears. */
    private final AtomicLong copying = new AtomicLong();
    /** Sampled time and count while resting; any thread adds, merging thread reads and clears. */
    private final AtomicLong resting = new AtomicLong();

    /** The samples of one stretch of a merge: mean nanoseconds and count, while copying and while resting. */
    public record Samples(long copyCount, double copyMean, long restCount, double restMean) {
    }

    /** A phase of the merge: copying or resting, since a {@link System#nanoTime}. */
    private record Phase(boolean copying, long since) {
    }

    /** A sampler that watches nothing until a merge starts it. */
    public ForegroundLatency() {
    }

    /** Called before a foreground operation: its start, or 0 when it is not sampled. */
    public long begin() {
        if (!watching || ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) != 0) {
            return 0;
        }
        long now = System.nanoTime();
        return now == 0 ? 1 : now;
    }

    /** Called after a foreground operation with what {@link #begin} returned. */
    public void end(long begun) {
        if (begun != 0) {
            long now = System.nanoTime();
            Phase p = phase; // read after the clock: a switch published by now is seen
            if (begun - p.since() > 0) {
                record(p.copying(), now - begun);
            }
        }
    }

    /** Files one sample; package-private so that tests can feed the pacer exact figures. */
    void record(boolean whileCopying, long nanos) {
        long capped = Math.max(0, Math.min(nanos, MAX_SAMPLE_NANOS));
        (whileCopying ? copying : resting).getAndAdd((capped << COUNT_BITS) | 1);
    }

    /** Starts or stops sampling; merging thread. A start begins in the copying phase with no samples. */
    void watch(boolean on) {
        if (on) {
            clear();
            phase(true);
        }
        watching = on;
    }

    /** Switches the phase; merging thread. */
    void phase(boolean nowCopying) {
        phase = new Phase(nowCopying, System.nanoTime());
    }

    /** The samples since the last {@link #clear}; merging thread. */
    Samples peek() {
        long c = copying.get();
        long r = resting.get();
        return new Samples(count(c), mean(c), count(r), mean(r));
    }

    private static long count(long tally) {
        return tally & ((1L << COUNT_BITS) - 1);
    }

    private static double mean(long tally) {
        long n = count(tally);
        return n == 0 ? 0 : (double) (tally >>> COUNT_BITS) / n;
    }

    /** Drops the samples so far, so the next stretch starts empty; merging thread. */
    void clear() {
        copying.set(0);
        resting.set(0);
    }
}
