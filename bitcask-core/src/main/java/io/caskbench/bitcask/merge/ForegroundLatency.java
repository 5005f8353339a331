package io.caskbench.bitcask.merge;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Threading: {@link #begin} and {@link #end} from any foreground thread without a lock; the phase
 * switches and {@link #peek} and {@link #clear} from the merging thread only.
 *
 * <p>What reads and writes take while a merge runs, sampled: one operation in
 * {@value #SAMPLE_EVERY} is timed, and only while a merge is being paced. Each sample is filed
 * under the merge's phase: copying, or resting. An operation that spans a switch is filed under
 * copying, since the merge ran during part of it; the resting figure is then the foreground on its
 * own, which is what the copying figure is compared with.
 *
 * <p>When no merge is paced, an operation costs one volatile read here.
 */
public final class ForegroundLatency {

    /** One operation in this many is timed. */
    public static final int SAMPLE_EVERY = 32;

    /** True while a merge is paced; merging thread writes, any thread reads. */
    private volatile boolean watching;
    /** True while the merge copies, false while it rests; merging thread writes, any thread reads. */
    private volatile boolean copying;
    /** {@link System#nanoTime} of the last phase switch; merging thread writes, any thread reads. */
    private volatile long switchedAt;
    /** Sampled nanoseconds while copying; any thread adds, merging thread reads and clears. */
    private final LongAdder copySum = new LongAdder();
    /** Samples while copying; any thread adds, merging thread reads and clears. */
    private final LongAdder copyCount = new LongAdder();
    /** Sampled nanoseconds while resting; any thread adds, merging thread reads and clears. */
    private final LongAdder restSum = new LongAdder();
    /** Samples while resting; any thread adds, merging thread reads and clears. */
    private final LongAdder restCount = new LongAdder();

    /** The samples of one stretch of a merge: mean nanoseconds and count, while copying and while resting. */
    public record Samples(long copyCount, double copyMean, long restCount, double restMean) {
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
            record(copying || begun < switchedAt, now - begun);
        }
    }

    /** Files one sample; package-private so that tests can feed the pacer exact figures. */
    void record(boolean whileCopying, long nanos) {
        if (whileCopying) {
            copySum.add(nanos);
            copyCount.increment();
        } else {
            restSum.add(nanos);
            restCount.increment();
        }
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
        switchedAt = System.nanoTime();
        copying = nowCopying;
    }

    /** The samples since the last {@link #clear}; merging thread. */
    Samples peek() {
        long cn = copyCount.sum();
        long rn = restCount.sum();
        return new Samples(cn, cn == 0 ? 0 : (double) copySum.sum() / cn, rn, rn == 0 ? 0 : (double) restSum.sum() / rn);
    }

    /** Drops the samples so far, so the next stretch starts empty; merging thread. */
    void clear() {
        copySum.reset();
        copyCount.reset();
        restSum.reset();
        restCount.reset();
    }
}
