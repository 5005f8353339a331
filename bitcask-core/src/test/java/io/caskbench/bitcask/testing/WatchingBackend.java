package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.io.SpaceReport;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Wraps a real backend and watches its segment files: how far each was written and forced, and
 * how many handles are open; it can refuse to open a file for reading, and hold a copy in its
 * middle. Every other file operation goes to the wrapped backend unchanged, so it can sit in front
 * of another wrapper (the power-loss model) without bypassing it.
 */
public final class WatchingBackend implements SegmentBackend {

    private final SegmentBackend delegate;
    private final Map<String, AtomicLong> written = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> forced = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> read = new ConcurrentHashMap<>();
    /** Handles opened and not yet closed. */
    public final AtomicInteger openHandles = new AtomicInteger();
    /** Files whose read-only open fails with an injected error. */
    public volatile Predicate<Path> failOpenReadOnly = p -> false;
    /** Called with the file's name before each force through a writer: a test can hold a forcing thread there. */
    public volatile Consumer<String> beforeForce = name -> { };
    /** Called with the file's name before each read of a segment: a test can hold a reading thread there. */
    public volatile Consumer<String> beforeRead = name -> { };
    /**
     * Called with the file's name after a read-only handle is closed: a test can make the close fail
     * by throwing, after the handle was let go.
     */
    public volatile Consumer<String> afterReadOnlyClose = name -> { };
    /**
     * When set, each write of more than one byte is made in two halves, with this called with the
     * file's name between them: a test can hold a copy in its middle, as a descheduled writer or a
     * throttled {@code pwrite} is held.
     */
    public volatile Consumer<String> midWrite;
    /** Names of the files whose writer was closed. */
    public final Set<String> closedWriters = ConcurrentHashMap.newKeySet();

    public WatchingBackend(SegmentBackend delegate) {
        this.delegate = delegate;
    }

    /** End of the highest write into the file named {@code name}. */
    public long writtenEnd(String name) {
        return written.getOrDefault(name, new AtomicLong()).get();
    }

    /** Bytes read so far from the file named {@code name}, through any of its handles. */
    public long bytesRead(String name) {
        return read.getOrDefault(name, new AtomicLong()).get();
    }

    private void countRead(String name, int len) {
        read.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(len);
    }

    /** End of what a completed force of the file named {@code name} covered. */
    public long forcedEnd(String name) {
        return forced.getOrDefault(name, new AtomicLong()).get();
    }

    @Override
    public byte[] readFile(Path file) {
        return delegate.readFile(file);
    }

    @Override
    public void writeFile(Path file, byte[] content) {
        delegate.writeFile(file, content);
    }

    @Override
    public SpaceReport space(Path dir) {
        return delegate.space(dir);
    }

    @Override
    public void rename(Path from, Path to) {
        delegate.rename(from, to);
    }

    @Override
    public boolean delete(Path file) {
        return delegate.delete(file);
    }

    @Override
    public void linkOrCopy(Path src, Path dst) {
        delegate.linkOrCopy(src, dst);
    }

    @Override
    public void copyPrefix(SegmentReader src, long length, Path dst) {
        delegate.copyPrefix(src, length, dst);
    }

    @Override
    public void forceFile(Path file) {
        delegate.forceFile(file);
    }

    @Override
    public void forceDirectory(Path dir) {
        delegate.forceDirectory(dir);
    }

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        SegmentWriter w = delegate.openWritable(file, capacity);
        openHandles.incrementAndGet();
        return new Watched(w, file.getFileName().toString());
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        if (failOpenReadOnly.test(file)) {
            throw new BitCaskException("injected: cannot open " + file);
        }
        SegmentReader r = delegate.openReadOnly(file);
        openHandles.incrementAndGet();
        return new SegmentReader() {
            private final AtomicBoolean closed = new AtomicBoolean();

            @Override
            public void read(long position, byte[] dst, int off, int len) {
                beforeRead.accept(file.getFileName().toString());
                r.read(position, dst, off, len);
                countRead(file.getFileName().toString(), len);
            }

            @Override
            public long size() {
                return r.size();
            }

            @Override
            public void close() {
                if (closed.compareAndSet(false, true)) {
                    openHandles.decrementAndGet();
                }
                r.close();
                afterReadOnlyClose.accept(file.getFileName().toString());
            }
        };
    }

    private final class Watched implements SegmentWriter {
        private final SegmentWriter w;
        private final String name;
        private final AtomicBoolean closed = new AtomicBoolean();

        Watched(SegmentWriter w, String name) {
            this.w = w;
            this.name = name;
        }

        @Override
        public void write(long position, byte[] src, int off, int len) {
            Consumer<String> mid = midWrite;
            if (mid != null && len > 1) {
                int half = len / 2;
                w.write(position, src, off, half);
                mid.accept(name);
                w.write(position + half, src, off + half, len - half);
            } else {
                w.write(position, src, off, len);
            }
            written.computeIfAbsent(name, n -> new AtomicLong()).accumulateAndGet(position + len, Math::max);
        }

        @Override
        public void force() {
            beforeForce.accept(name);
            long covered = writtenEnd(name);
            w.force();
            forced.computeIfAbsent(name, n -> new AtomicLong()).accumulateAndGet(covered, Math::max);
        }

        @Override
        public void truncate(long size) {
            w.truncate(size);
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            beforeRead.accept(name);
            w.read(position, dst, off, len);
            countRead(name, len);
        }

        @Override
        public long size() {
            return w.size();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                openHandles.decrementAndGet();
            }
            w.close();
            closedWriters.add(name);
        }
    }
}
