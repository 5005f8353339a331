package io.caskbench.bench.openloop;

import java.util.concurrent.locks.LockSupport;

/**
 * The driver's time source and its way of waiting for an operation's intended start; tests replace it with
 * a clock of their own so that a schedule can be checked exactly.
 */
public interface Clock {

    /** The JVM's monotonic clock; waits by parking the thread. */
    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        /**
         * Parks until the deadline. The kernel wakes a parked thread tens of microseconds late (timer slack,
         * then waiting for a core); that lateness counts against the operation, as it would for a client,
         * and the harness-alone rows measure it.
         */
        @Override
        public void sleepUntil(long deadline) {
            for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(left);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        }
    };

    /** Now, in nanoseconds from an arbitrary origin; never decreasing. */
    long nanoTime();

    /** Returns once {@link #nanoTime()} reaches {@code deadline} (at once when it already has), or on interrupt. */
    void sleepUntil(long deadline);
}
