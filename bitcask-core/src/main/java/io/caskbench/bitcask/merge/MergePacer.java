package io.caskbench.bitcask.merge;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Threading: the merging thread only.
 *
 * <p>Paces a merge by what it does to the foreground's latency. The merge copies in slices of
 * {@link #SLICE_NANOS} and may rest between them. After each slice and rest, the sampled latency of
 * reads and writes while it copied is compared with their latency while it rested
 * ({@link ForegroundLatency}): more than {@link #TOLERANCE} times slower and the rest doubles, up to
 * {@link #MAX_REST_SLICES} slices, so a merge always keeps one slice in eight and finishes; otherwise
 * the rest halves, down to a quarter slice while the foreground is busy, and to none once fewer
 * than {@link #MIN_SAMPLES} operations were sampled over {@link #IDLE_CYCLES} slices. A slice is at
 * least {@link #SLICE_NANOS}: the clock is read every 16 records.
 *
 * <p>It rests only while {@code restAllowed} says so: the write stall allows it while the store is
 * under its soft limit. Past it the merge copies flat out whatever the foreground's latency, since a
 * merge that rests there loses the race against the writers, and they are delayed for its sake.
 *
 * <p>Why latency and not only bytes per second: on a machine with few cores the merge's cost is
 * mostly the core it takes from readers and writers, which no byte rate can see. A rate low enough
 * for a busy hour makes every quiet hour's merge needlessly slow.
 */
public final class MergePacer {

    /** Copying time between two looks at the foreground. */
    public static final long SLICE_NANOS = 2_000_000;
    /** The longest rest, in slices: the merge copies at least one slice in {@code MAX_REST_SLICES + 1}. */
    public static final int MAX_REST_SLICES = 7;
    /** Copying may make foreground operations this much slower on average before the merge backs off. */
    public static final double TOLERANCE = 1.25;
    /** Samples each phase needs before a comparison means anything. */
    public static final int MIN_SAMPLES = 8;
    /** Slices with too few copying samples after which the foreground counts as idle. */
    public static final int IDLE_CYCLES = 8;
    /** Records copied between two clock reads. */
    private static final int CHECK_EVERY = 16;

    /** Pauses the merging thread; {@link LockSupport#parkNanos} outside tests. */
    @FunctionalInterface
    public interface Rest {
        /** Pauses for about {@code nanos}. */
        void pause(long nanos);
    }

    /** Final. */
    private final ForegroundLatency foreground;
    /** Final. */
    private final LongSupplier clock;
    /** Final. */
    private final Rest rest;
    /** Final: false when pacing is off, and then every call is a no-op. */
    private final boolean enabled;
    /** Whether resting is allowed now; final, read at the end of each slice. */
    private final BooleanSupplier restAllowed;
    /** When the current copying slice began. */
    private long sliceStart;
    /** The rest after each slice now. */
    private long restNanos;
    /** Slices since the last decision whose copying samples were too few to decide on. */
    private int undecided;
    /** Records since the last clock read. */
    private int sinceCheck;
    /** Total rested, for the merge's result. */
    private long restedNanos;

    /** A pacer on {@code foreground}'s samples that rests only while {@code restAllowed}; a disabled one does nothing. */
    public MergePacer(ForegroundLatency foreground, boolean enabled, BooleanSupplier restAllowed) {
        this(foreground, enabled, restAllowed, System::nanoTime, LockSupport::parkNanos);
    }

    /** A pacer that may always rest, with its clock and its pause given; for tests. */
    MergePacer(ForegroundLatency foreground, boolean enabled, LongSupplier clock, Rest rest) {
        this(foreground, enabled, () -> true, clock, rest);
    }

    /** A pacer with its clock and its pause given; for tests. */
    MergePacer(ForegroundLatency foreground, boolean enabled, BooleanSupplier restAllowed, LongSupplier clock, Rest rest) {
        this.foreground = foreground;
        this.enabled = enabled;
        this.restAllowed = restAllowed;
        this.clock = clock;
        this.rest = rest;
    }

    /** Starts watching the foreground as the copying begins. */
    public void start() {
        if (enabled) {
            foreground.watch(true);
            sliceStart = clock.getAsLong();
        }
    }

    /** Accounts for one copied record; at the end of a slice rests as long as the foreground needs. */
    public void copied() {
        if (!enabled || ++sinceCheck < CHECK_EVERY) {
            return;
        }
        sinceCheck = 0;
        if (clock.getAsLong() - sliceStart < SLICE_NANOS) {
            return;
        }
        if (!restAllowed.getAsBoolean()) {
            sliceStart = clock.getAsLong(); // writers are delayed for this merge: no rest, and no decision on a phase not taken
            return;
        }
        if (restNanos > 0) {
            foreground.phase(false);
            long before = clock.getAsLong();
            rest.pause(restNanos);
            // The time actually rested: a pending interrupt (close cancelling the merge) cuts a park short.
            restedNanos += clock.getAsLong() - before;
            foreground.phase(true);
        }
        decide();
        sliceStart = clock.getAsLong();
    }

    /** Stops watching; the copying is over (or failed). */
    public void finish() {
        if (enabled) {
            foreground.watch(false);
        }
    }

    /** The rest after each slice now, in nanoseconds. */
    public long restNanos() {
        return restNanos;
    }

    /** Nanoseconds rested so far. */
    public long restedNanos() {
        return restedNanos;
    }

    /**
     * Adjusts the rest from the samples gathered since the last decision. They accumulate over slices
     * until both phases have enough (a quiet foreground yields few), so light load still decides.
     */
    private void decide() {
        ForegroundLatency.Samples s = foreground.peek();
        if (s.copyCount() < MIN_SAMPLES) {
            if (++undecided >= IDLE_CYCLES) {
                restNanos = 0; // the foreground is idle or nearly: copy flat out
                undecided = 0;
                foreground.clear();
            }
            return;
        }
        if (s.restCount() < MIN_SAMPLES && ++undecided < IDLE_CYCLES) {
            // No baseline yet: rest at least one slice to measure the foreground alone.
            restNanos = Math.max(restNanos, SLICE_NANOS);
            return;
        }
        if (s.restCount() >= MIN_SAMPLES && s.copyMean() > TOLERANCE * s.restMean()) {
            restNanos = Math.min(Math.max(2 * restNanos, SLICE_NANOS), MAX_REST_SLICES * SLICE_NANOS);
        } else {
            restNanos = Math.max(restNanos / 2, SLICE_NANOS / 4);
        }
        undecided = 0;
        foreground.clear();
    }
}
