package io.caskbench.bitcask.log;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Threading: the writer thread, under the log writer's lock, opens and closes the fence; any
 * thread reads it without a lock.
 *
 * <p>The seqlock that keeps readers from seeing half a batch: the writer makes the version odd
 * while it publishes a batch's keys, and a read that overlapped a publication is repeated. Once a
 * read has seen one key of a batch, every later read sees all of them.
 */
public final class BatchFence {

    /** Odd while a batch is being published; any thread reads, the writer thread increments. */
    private final AtomicLong version = new AtomicLong();

    /** The version now; a read may go on only when it is even (see {@link #stable}). */
    public long version() {
        return version.get();
    }

    /** True when {@code v} was read outside any publication. */
    public static boolean stable(long v) {
        return (v & 1) == 0;
    }

    /** True when no publication began since {@code v} was read. */
    public boolean unchanged(long v) {
        return version.get() == v;
    }

    /** The writer begins publishing a batch. */
    void open() {
        version.incrementAndGet();
    }

    /** The writer has published the whole batch. */
    void close() {
        version.incrementAndGet();
    }

    /** Spins, then yields: a batch publication is short, but its writer may have lost its core. */
    static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
