package io.caskbench.bench.openloop;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How one worker thread waits for an operation's due time: it parks until a little before it, the
 * spin-ahead, then spins to it, so that the kernel's lateness in waking a parked thread (its timer slack,
 * 50 us by default on Linux, then the wait for a core) is spent before the due time instead of after it.
 *
 * <p>The spin-ahead adapts to the lateness it observes: a park that wakes later than the spin-ahead raises it
 * at once to that lateness plus an eighth, and a park that wakes within it lowers it by a thirty-second of
 * the difference, so it settles just above the usual lateness and covers all but its rarest spikes. A park
 * later than the cap teaches nothing: that is a wait for a core, which spinning does not shorten (a thread
 * that spins longer only uses up its share of a busy machine sooner, and waits the longer for it). It starts
 * at a quarter of the cap and never exceeds the limit: the cap, or half the thread's interval between two
 * operations when that is less, so that a thread never spins more than half its time (at 20,000 operations
 * per second on one thread, 25 us; parking then covers only the rest of the timer slack).
 *
 * <p>What it costs: a thread spins from when its park wakes to the due time, the spin-ahead less that park's
 * lateness, which once settled is a few microseconds per operation, and never more than the limit; the
 * driver reports the total ({@link OpenLoopResult#spinCores()}).
 *
 * <p>Threads that spin at once are counted over all of a run's workers, and a thread spins only while
 * fewer than {@code maxSpinning} others do (the driver passes the machine's processors): a spinner keeps its
 * core, so more spinners than cores would delay the very operations they wait for. A thread that finds no
 * room parks to the due time, and wakes late by the kernel's lateness, as without spinning.
 */
final class SpinAhead {

    /** The clock waited on; read by the owning thread only. */
    private final Clock clock;
    /** Lateness beyond this is a wait for a core, not learnt from; nanoseconds. */
    private final long cap;
    /** The most the spin-ahead may be: the cap, or half the thread's interval when less; 0 parks only. */
    private final long limit;
    /** Threads spinning now, over all workers of one run; any worker thread, atomically. */
    private final AtomicInteger spinning;
    /** The most threads that may spin at once. */
    private final int maxSpinning;
    /** The current spin-ahead, nanoseconds; owning thread only. */
    private long lead;
    /** Nanoseconds spent spinning so far; owning thread only. */
    private long spun;

    /**
     * A waiter for one worker thread.
     *
     * @param capNanos the most a wait spins, and the most lateness learnt from; 0 parks only
     * @param intervalNanos the thread's time between two due times
     * @param spinning the count of threads spinning now, shared by the run's workers
     * @param maxSpinning the most threads that may spin at once
     */
    SpinAhead(Clock clock, long capNanos, double intervalNanos, AtomicInteger spinning, int maxSpinning) {
        if (capNanos < 0) {
            throw new IllegalArgumentException("spin-ahead cap must not be negative, was " + capNanos);
        }
        this.clock = clock;
        this.cap = capNanos;
        this.limit = Math.min(capNanos, (long) (intervalNanos / 2));
        this.spinning = spinning;
        this.maxSpinning = maxSpinning;
        this.lead = Math.min(limit, capNanos / 4);
    }

    /** Returns once the clock reaches {@code due} (at once when it already has), or on interrupt. */
    void await(long due) {
        long now = clock.nanoTime();
        long wake = due - lead;
        if (now < wake) {
            now = parkUntil(wake, now);
            if (now < 0) {
                return;
            }
            learn(now - wake);
        }
        if (now >= due) {
            return;
        }
        if (spinning.incrementAndGet() <= maxSpinning) {
            long from = now;
            while (now < due) {
                clock.spin();
                now = clock.nanoTime();
            }
            spun += now - from;
            spinning.decrementAndGet();
        } else {
            spinning.decrementAndGet();
            parkUntil(due, now);
        }
    }

    /** Parks until {@code deadline}; the time then, or -1 on interrupt. */
    private long parkUntil(long deadline, long now) {
        while (now < deadline) {
            clock.park(deadline - now);
            if (Thread.currentThread().isInterrupted()) {
                return -1;
            }
            now = clock.nanoTime();
        }
        return now;
    }

    /** Moves the spin-ahead after a park that woke {@code late} nanoseconds after it was asked to. */
    private void learn(long late) {
        if (late > cap) {
            return;
        }
        if (late > lead) {
            lead = Math.min(limit, late + late / 8);
        } else {
            lead -= (lead - late) / 32;
        }
    }

    /** The current spin-ahead, nanoseconds. */
    long lead() {
        return lead;
    }

    /** Nanoseconds this thread has spun so far. */
    long spun() {
        return spun;
    }
}
