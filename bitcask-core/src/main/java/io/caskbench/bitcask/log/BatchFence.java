package io.caskbench.bitcask.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Threading: the writer thread, under the log writer's lock, opens and closes the fence; any
 * thread reads it without a lock.
 *
 * <p>The seqlock that keeps readers from seeing half a batch: the writer makes the version odd
 * while it publishes a batch's keys, and a read that overlapped a publication is repeated. Once a
 * read has seen one key of a batch, every later read sees all of them.
 */
public final class BatchFence {

    private static final VarHandle VERSION;

    static {
        try {
            VERSION = MethodHandles.lookup().findVarHandle(BatchFence.class, "version", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Odd while a batch is being published; any thread reads it (volatile), the writer thread
     * adds to it atomically. A field of its own, not an AtomicLong, so a read costs no extra hop.
     */
    private volatile long version;

    /** The version now; a read may go on only when it is even (see {@link #stable}). */
    public long version() {
        return version;
    }

    /** True when {@code v} was read outside any publication. */
    public static boolean stable(long v) {
        return (v & 1) == 0;
    }

    /** True when no publication began since {@code v} was read. */
    public boolean unchanged(long v) {
        return version == v;
    }

    /** The writer begins publishing a batch. */
    void open() {
        VERSION.getAndAdd(this, 1L);
    }

    /** The writer has published the whole batch. */
    void close() {
        VERSION.getAndAdd(this, 1L);
    }
}
