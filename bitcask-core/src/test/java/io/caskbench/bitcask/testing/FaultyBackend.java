package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.io.SpaceReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Wraps a real backend and fails on command. Two styles of fault:
 * <ul>
 *   <li>standing conditions: writes fail once a byte budget is spent, as on a full disk, and
 *       every force fails while {@link #failForce} is set;</li>
 *   <li>one scripted fault: {@link #failCall} makes the k-th counted call throw. Every call of
 *       every {@link Kind} is counted from 1 (optionally only the calls of one thread, see
 *       {@link #countOnly}), so a test can first count the calls of a clean run and then fail
 *       each one in turn.</li>
 * </ul>
 * It also keeps track of what each segment force covered, so a test can check that a write was
 * forced before the store acknowledged it, and it can record every call (kind, path, thread) so a
 * failing test can say what the k-th call was.
 *
 * <p>Longer than most classes: it wraps every method of the backend and of its handles, and all of
 * them share one numbering of calls, so they stay in one place.
 */
public final class FaultyBackend implements SegmentBackend {

    /** Bytes that may still be written; negative means unlimited. */
    public final AtomicLong writeBudget = new AtomicLong(-1);
    /** The free space the file system reports; negative means the real figure. */
    public final AtomicLong usableSpace = new AtomicLong(-1);
    /** The size the file system reports, 0 for one that reports no blocks; negative means the real figure. */
    public final AtomicLong totalSpace = new AtomicLong(-1);
    /** When set, every force (of a segment, a file or a directory) fails. */
    public final AtomicBoolean failForce = new AtomicBoolean();
    /** Milliseconds each segment force sleeps before it forces, to make concurrent writers overlap one. */
    public volatile int forceDelayMillis;
    /** When set, every segment force waits until this latch opens (after noting what it covers). */
    public volatile CountDownLatch forceGate;
    /** Successful segment forces so far. */
    public final AtomicLong forces = new AtomicLong();
    /** Segment forces begun so far, successful or not. */
    public final AtomicLong forcesStarted = new AtomicLong();
    /** Writes that reached the file so far. */
    public final AtomicLong writes = new AtomicLong();
    /**
     * When set, forces are counted (and may fail) but not passed on. A test that never loses power
     * does not care what reached the device, and on a real disk each force costs milliseconds.
     */
    public volatile boolean skipRealForces;

    private final SegmentBackend delegate;
    private final ThreadLocal<Writer> lastWriter = new ThreadLocal<>();
    private final ThreadLocal<Long> lastWriteEnd = new ThreadLocal<>();
    /** Counted calls so far, and per kind. */
    private final AtomicLong counted = new AtomicLong();
    private final AtomicLongArray countedByKind = new AtomicLongArray(Kind.values().length);
    /** Counted calls of the armed kinds since {@link #failCall}; the scripted fault fires when it reaches failAt. */
    private final AtomicLong armedCount = new AtomicLong();
    private volatile long failAt;
    private volatile Set<Kind> failKinds = EnumSet.allOf(Kind.class);
    private volatile boolean tornFaults;
    private volatile Thread onlyThread;
    private volatile boolean recording;
    private volatile Call fired;
    /** Handles opened through this backend and not yet closed. */
    private final AtomicLong openHandles = new AtomicLong();
    private final List<Call> log = Collections.synchronizedList(new ArrayList<>());

    /** Wraps {@code delegate}; no fault is armed. */
    public FaultyBackend(SegmentBackend delegate) {
        this.delegate = delegate;
    }

    /** Every kind of call the store makes through its backend; closing a handle is not a fault point. */
    public enum Kind {
        /** {@link SegmentBackend#openWritable}. */
        OPEN_WRITABLE,
        /** {@link SegmentBackend#openReadOnly}. */
        OPEN_READ_ONLY,
        /** {@link SegmentWriter#write}. */
        WRITE,
        /** {@link SegmentReader#read}. */
        READ,
        /** {@link SegmentWriter#force}. */
        FORCE,
        /** {@link SegmentWriter#truncate}. */
        TRUNCATE,
        /** {@link SegmentReader#size}. */
        SIZE,
        /** {@link SegmentBackend#readFile}. */
        READ_FILE,
        /** {@link SegmentBackend#writeFile}. */
        WRITE_FILE,
        /** {@link SegmentBackend#rename}. */
        RENAME,
        /** {@link SegmentBackend#delete}. */
        DELETE,
        /** {@link SegmentBackend#linkOrCopy}. */
        LINK_OR_COPY,
        /** {@link SegmentBackend#copyPrefix}. */
        COPY_PREFIX,
        /** {@link SegmentBackend#forceFile}. */
        FORCE_FILE,
        /** {@link SegmentBackend#forceDirectory}. */
        FORCE_DIRECTORY;

        /** True for the kinds that make data durable; the contract treats their failure specially. */
        public boolean isForce() {
            return this == FORCE || this == FORCE_FILE || this == FORCE_DIRECTORY;
        }

        /** True for the kinds that only look at files. */
        public boolean isRead() {
            return this == OPEN_READ_ONLY || this == READ || this == SIZE || this == READ_FILE;
        }
    }

    /**
     * One call through this backend.
     *
     * @param number its number among the counted calls, 0 when it was not counted
     * @param kind   what it was
     * @param path   the file (or directory) it was about
     * @param other  the second file of a rename, link or copy, else null
     * @param thread the name of the thread that made it
     */
    public record Call(long number, Kind kind, Path path, Path other, String thread) {
        @Override
        public String toString() {
            return "call " + number + " " + kind + " " + path + (other == null ? "" : " -> " + other) + " on " + thread;
        }
    }

    // ------------------------------------------------------------------ control

    /**
     * Arms one fault: the {@code k}-th counted call (from 1) whose kind is in {@code kinds} throws
     * {@code BitCaskException("injected: ...")}; later calls succeed again. Restarts that count.
     */
    public void failCall(long k, Set<Kind> kinds) {
        if (k < 1) {
            throw new IllegalArgumentException("calls are counted from 1: " + k);
        }
        failKinds = kinds.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(kinds);
        armedCount.set(0);
        fired = null;
        failAt = k;
    }

    /** Arms one fault on the {@code k}-th counted call of any kind. */
    public void failCall(long k) {
        failCall(k, EnumSet.allOf(Kind.class));
    }

    /**
     * When set, a failing write first stores the first half of its bytes and a failing
     * {@code copyPrefix} leaves a half-copied file, as a disk that fills up in the middle does.
     */
    public void tornFaults(boolean torn) {
        tornFaults = torn;
    }

    /**
     * Counts (and fails) only the calls of {@code thread}; null counts every thread. Background
     * threads of the store race the caller, so a test that replays the same calls run after run
     * counts only its own thread's.
     */
    public void countOnly(Thread thread) {
        onlyThread = thread;
    }

    /** Starts or stops keeping every call (counted or not) for {@link #calls()}. */
    public void recordCalls(boolean on) {
        recording = on;
    }

    /** The calls kept since recording started, in order. */
    public List<Call> calls() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /** The counted call that the scripted fault failed, or null while it has not fired. */
    public Call fired() {
        return fired;
    }

    /** Counted calls so far. */
    public long count() {
        return counted.get();
    }

    /** Counted calls of one kind so far. */
    public long count(Kind kind) {
        return countedByKind.get(kind.ordinal());
    }

    /** Segment handles opened through this backend and not closed yet. */
    public long openHandles() {
        return openHandles.get();
    }

    /**
     * Whether the calling thread's last write lies within what a successful force of its segment
     * covered (a force covers every write completed before it started).
     */
    public boolean lastWriteForced() {
        Writer w = lastWriter.get();
        return w == null || w.forcedEnd.get() >= lastWriteEnd.get();
    }

    // --------------------------------------------------------------- accounting

    /** Counts and records a call; returns the call when the scripted fault fires on it, else null. */
    private Call enter(Kind kind, Path path, Path other) {
        Thread t = Thread.currentThread();
        Thread only = onlyThread;
        boolean counts = only == null || only == t;
        long n = 0;
        if (counts) {
            n = counted.incrementAndGet();
            countedByKind.incrementAndGet(kind.ordinal());
        }
        Call call = new Call(n, kind, path, other, t.getName());
        if (recording) {
            log.add(call);
        }
        if (counts && failAt > 0 && failKinds.contains(kind) && armedCount.incrementAndGet() == failAt) {
            fired = call;
            return call;
        }
        return null;
    }

    private static BitCaskException injected(Call call) {
        return new BitCaskException("injected: " + call);
    }

    /** Counts a call and throws when the scripted fault fires on it. */
    private void check(Kind kind, Path path, Path other) {
        Call c = enter(kind, path, other);
        if (c != null) {
            throw injected(c);
        }
    }

    private void checkStandingForceFault() {
        if (failForce.get()) {
            throw new BitCaskException("injected: fsync failed");
        }
    }

    // ------------------------------------------------------------------ backend

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        check(Kind.OPEN_WRITABLE, file, null);
        return new Writer(file, delegate.openWritable(file, capacity));
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        check(Kind.OPEN_READ_ONLY, file, null);
        return new Reader(file, delegate.openReadOnly(file));
    }

    @Override
    public byte[] readFile(Path file) {
        check(Kind.READ_FILE, file, null);
        return delegate.readFile(file);
    }

    @Override
    public void writeFile(Path file, byte[] content) {
        check(Kind.WRITE_FILE, file, null);
        delegate.writeFile(file, content);
    }

    @Override
    public SpaceReport space(Path dir) {
        long total = totalSpace.get();
        long usable = usableSpace.get();
        if (total >= 0 && usable >= 0) {
            return new SpaceReport(total, usable);
        }
        SpaceReport real = delegate.space(dir);
        return new SpaceReport(total >= 0 ? total : real.total(), usable >= 0 ? usable : real.usable());
    }

    @Override
    public void rename(Path from, Path to) {
        check(Kind.RENAME, from, to);
        delegate.rename(from, to);
    }

    @Override
    public boolean delete(Path file) {
        check(Kind.DELETE, file, null);
        return delegate.delete(file);
    }

    @Override
    public void linkOrCopy(Path src, Path dst) {
        check(Kind.LINK_OR_COPY, src, dst);
        delegate.linkOrCopy(src, dst);
    }

    @Override
    public void copyPrefix(SegmentReader src, long length, Path dst) {
        Call c = enter(Kind.COPY_PREFIX, dst, null);
        if (c != null) {
            if (tornFaults && length > 1) {
                delegate.copyPrefix(src, length / 2, dst);
            }
            throw injected(c);
        }
        delegate.copyPrefix(src, length, dst);
    }

    @Override
    public void forceFile(Path file) {
        check(Kind.FORCE_FILE, file, null);
        checkStandingForceFault();
        if (!skipRealForces) {
            delegate.forceFile(file);
        }
    }

    @Override
    public void forceDirectory(Path dir) {
        check(Kind.FORCE_DIRECTORY, dir, null);
        checkStandingForceFault();
        if (!skipRealForces) {
            delegate.forceDirectory(dir);
        }
    }

    /** A read-only handle: counts reads and size queries. */
    private class Reader implements SegmentReader {
        final Path file;
        private final SegmentReader r;
        private final AtomicBoolean closed = new AtomicBoolean();

        Reader(Path file, SegmentReader r) {
            this.file = file;
            this.r = r;
            openHandles.incrementAndGet();
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            check(Kind.READ, file, null);
            r.read(position, dst, off, len);
        }

        @Override
        public long size() {
            check(Kind.SIZE, file, null);
            return r.size();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                openHandles.decrementAndGet();
            }
            r.close();
        }
    }

    private final class Writer extends Reader implements SegmentWriter {
        private final SegmentWriter w;
        private final AtomicLong writtenEnd = new AtomicLong();
        private final AtomicLong forcedEnd = new AtomicLong();

        Writer(Path file, SegmentWriter w) {
            super(file, w);
            this.w = w;
        }

        @Override
        public void write(long position, byte[] src, int off, int len) {
            Call c = enter(Kind.WRITE, file, null);
            if (c != null) {
                if (tornFaults && len > 1) {
                    w.write(position, src, off, len / 2);
                }
                throw injected(c);
            }
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
            check(Kind.FORCE, file, null);
            checkStandingForceFault();
            long covered = writtenEnd.get(); // before forcesStarted: a write seen after that is not covered
            forcesStarted.incrementAndGet();
            CountDownLatch gate = forceGate;
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
            if (!skipRealForces) {
                w.force();
            }
            forcedEnd.accumulateAndGet(covered, Math::max);
            forces.incrementAndGet();
        }

        @Override
        public void truncate(long size) {
            check(Kind.TRUNCATE, file, null);
            w.truncate(size);
        }

        /** Passed on, so that faults also reach a sealed mapped segment that opens its file only to force it. */
        @Override
        public void sealed() {
            w.sealed();
        }
    }
}
