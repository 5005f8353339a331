package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps a real backend and fails on command: writes fail once a byte budget is spent, as on a
 * full disk, and forces fail while {@link #failForce} is set. It also keeps track of what each
 * force covered, so a test can check that a write was forced before the store acknowledged it.
 */
public final class FaultyBackend implements SegmentBackend {

    private final SegmentBackend delegate;
    /** Bytes that may still be written; negative means unlimited. */
    public final AtomicLong writeBudget = new AtomicLong(-1);
    /** When set, every force fails. */
    public final AtomicBoolean failForce = new AtomicBoolean();
    /** Milliseconds each force sleeps before it forces, to make concurrent writers overlap one. */
    public volatile int forceDelayMillis;
    /** When set, every force waits until this latch opens (after noting what it covers). */
    public volatile java.util.concurrent.CountDownLatch forceGate;
    /** Successful forces so far. */
    public final AtomicLong forces = new AtomicLong();
    /** Forces begun so far, successful or not. */
    public final AtomicLong forcesStarted = new AtomicLong();
    /** Writes that reached the file so far. */
    public final AtomicLong writes = new AtomicLong();
    private final ThreadLocal<Writer> lastWriter = new ThreadLocal<>();
    private final ThreadLocal<Long> lastWriteEnd = new ThreadLocal<>();

    public FaultyBackend(SegmentBackend delegate) {
        this.delegate = delegate;
    }

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        return new Writer(delegate.openWritable(file, capacity));
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        return delegate.openReadOnly(file);
    }

    /**
     * Whether the calling thread's last write lies within what a successful force of its segment
     * covered (a force covers every write completed before it started).
     */
    public boolean lastWriteForced() {
        Writer w = lastWriter.get();
        return w == null || w.forcedEnd.get() >= lastWriteEnd.get();
    }

    private final class Writer implements SegmentWriter {
        private final SegmentWriter w;
        private final AtomicLong writtenEnd = new AtomicLong();
        private final AtomicLong forcedEnd = new AtomicLong();

        Writer(SegmentWriter w) {
            this.w = w;
        }

        @Override
        public void write(long position, byte[] src, int off, int len) {
            long budget = writeBudget.get();
            if (budget >= 0) {
                if (budget < len) {
                    throw new BitCaskException("injected: no space left on device");
                }
                writeBudget.addAndGet(-len);
            }
            w.write(position, src, off, len);
            writtenEnd.accumulateAndGet(position + len, Math::max);
            lastWriter.set(this);
            lastWriteEnd.set(position + len);
            writes.incrementAndGet();
        }

        @Override
        public void force() {
            if (failForce.get()) {
                throw new BitCaskException("injected: fsync failed");
            }
            long covered = writtenEnd.get(); // before forcesStarted: a write seen after that is not covered
            forcesStarted.incrementAndGet();
            java.util.concurrent.CountDownLatch gate = forceGate;
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int delay = forceDelayMillis;
            if (delay > 0) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            w.force();
            forcedEnd.accumulateAndGet(covered, Math::max);
            forces.incrementAndGet();
        }

        @Override
        public void truncate(long size) {
            w.truncate(size);
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            w.read(position, dst, off, len);
        }

        @Override
        public long size() {
            return w.size();
        }

        @Override
        public void close() {
            w.close();
        }
    }
}
