package io.caskbench.bench.openloop;

import java.util.concurrent.locks.LockSupport;

/**
 * The driver's time source and its two ways of waiting, parking and spinning; tests replace it with a
 * clock of their own so that a schedule, and the waits that keep it, can be checked exactly.
 */
public interface Clock {

    /** The JVM's monotonic clock; parks with {@link LockSupport}, spins with {@link Thread#onSpinWait()}. */
    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        /**
         * Parks for {@code nanos}. Linux wakes a parked thread late: by its timer slack (50 us by default),
         * then by the wait for a core; {@link SpinAhead} learns how late and wakes that much earlier.
         */
        @Override
        public void park(long nanos) {
            LockSupport.parkNanos(nanos);
        }

        @Override
        public void spin() {
            Thread.onSpinWait();
        }
    };

    /** Now, in nanoseconds from an arbitrary origin; never decreasing. */
    long nanoTime();

    /**
     * Parks the calling thread for about {@code nanos}: it may return late, early (spuriously), or at once
     * when the thread is interrupted; callers read {@link #nanoTime()} after it.
     */
    void park(long nanos);

    /** One step of a busy wait: keeps the core, sleeps not at all. */
    void spin();
}
