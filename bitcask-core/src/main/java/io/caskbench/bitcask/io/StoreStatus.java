package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskReadOnlyException;
import io.caskbench.bitcask.events.WriteRefusedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Threading: any thread reads it without a lock; {@code closed} is set by close under the log
 * writer's lock, the first failure is recorded under {@code lock}.
 *
 * <p>Whether the store is open, closing, closed, or failed, as every part checks it. A failed
 * force fails the store: on Linux a failed fsync may have dropped the dirty pages it could not
 * write, and a later fsync would then report success for data that is gone; so, as PostgreSQL
 * does since 2018, the store takes no more writes until it is reopened and recovery has read
 * back what really is on the disk.
 */
public final class StoreStatus {

    private static final Logger LOG = LoggerFactory.getLogger(StoreStatus.class);

    /** Final, safe everywhere. */
    private final Path dir;
    /** Final, safe everywhere. */
    private final boolean readOnly;
    /** Guards the record of the first failure. */
    private final Object lock = new Object();
    /** Set once by the first caller of close; any thread. */
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Writes refused since a force failed; any thread adds and reads. */
    private final LongAdder refusals = new LongAdder();
    /** Any thread reads; set by close under the log writer's lock, or by a failed open. */
    private volatile boolean closed;
    /** The first force that failed; any thread reads, set once under {@code lock}. */
    private volatile BitCaskException failure;

    /** The status of the store in {@code dir}, open. */
    public StoreStatus(Path dir, boolean readOnly) {
        this.dir = dir;
        this.readOnly = readOnly;
    }

    /** True when the store was opened read-only. */
    public boolean readOnly() {
        return readOnly;
    }

    /** Marks the store closing; true for the first caller only, who then closes it. */
    public boolean beginClose() {
        return closing.compareAndSet(false, true);
    }

    /** True once close has begun. */
    public boolean closing() {
        return closing.get();
    }

    /** Marks the store closed: from now on every call but close throws. */
    public void markClosed() {
        closed = true;
    }

    /** True once the store is closed. */
    public boolean closed() {
        return closed;
    }

    /** True once a force failed. */
    public boolean failed() {
        return failure != null;
    }

    /** @throws IllegalStateException when the store is closed */
    public void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("BitCask store " + dir + " is closed");
        }
    }

    /** @throws IllegalStateException when closed; {@link BitCaskReadOnlyException} when read-only; BitCaskException when failed */
    public void ensureWritable() {
        ensureOpen();
        if (readOnly) {
            throw new BitCaskReadOnlyException(dir.toString());
        }
        ensureNotFailed();
    }

    /** @throws BitCaskException when a force failed since open */
    public void ensureNotFailed() {
        BitCaskException failed = failure;
        if (failed != null) {
            throw refused(failed);
        }
    }

    /** Records a failed force (the first one is kept and logged) and returns the exception to throw. */
    public BitCaskException fail(RuntimeException e) {
        BitCaskException cause = e instanceof BitCaskException b ? b : new BitCaskException(e.toString(), e);
        synchronized (lock) {
            if (failure == null) {
                failure = cause;
                LOG.error("{}: a force failed ({}); the store refuses writes until it is reopened", dir, e.toString());
            }
        }
        return new BitCaskException("a force of " + dir + " failed; this write may not be durable, and the store "
                + "refuses writes until it is reopened: " + e.getMessage(), e);
    }

    /** Writes refused because a force failed, since open. */
    public long refusedWrites() {
        return refusals.sum();
    }

    private BitCaskException refused(BitCaskException failed) {
        refusals.increment();
        WriteRefusedEvent event = new WriteRefusedEvent();
        if (event.shouldCommit()) {
            event.store = dir.toString();
            event.forceFailure = failed.getMessage();
            event.commit();
        }
        return new BitCaskException("store " + dir + " refuses writes since a force failed (" + failed.getMessage()
                + "); close and reopen it", failed);
    }
}
