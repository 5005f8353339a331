package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;

import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Threading: stateless, safe everywhere; see {@link SegmentReader} and {@link SegmentWriter} for the files it opens.
 *
 * <p>Segments as {@link MappedByteBuffer}s: reads and writes are memory copies with no system call.
 *
 * <p>A writable segment maps its whole capacity once. Mapping alone would make the file sparse,
 * and a write into a hole on a full disk kills the JVM with SIGBUS; so the file is first grown
 * with real zero writes, {@link #ALLOCATION_CHUNK} at a time, ahead of the write position. A full
 * disk then surfaces as an exception from {@link SegmentWriter#write}, before any byte of the
 * record is stored. Reads are bounds-checked against what was allocated, so a wild offset can
 * never touch unmapped file space.
 */
public final class MappedBackend implements SegmentBackend {

    /** How far ahead of the write position the file is allocated with real zero bytes. */
    public static final int ALLOCATION_CHUNK = 1 << 20;

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        if (capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a mapped segment holds at most " + Integer.MAX_VALUE + " bytes: " + capacity);
        }
        return new MappedSegment(file, true, (int) capacity);
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        return new MappedSegment(file, false, -1);
    }

    private static final class MappedSegment extends FileSegment {

        private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(ALLOCATION_CHUNK);
        private static final VarHandle WRITTEN;

        static {
            try {
                WRITTEN = MethodHandles.lookup().findVarHandle(MappedSegment.class, "written", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Final; read by any thread with absolute gets, written by the log writer under its lock. */
        private final MappedByteBuffer buffer;
        /** Bytes that exist in the file and may be read. */
        private volatile long readable;
        /** End of the highest write; raised by the writer (release), read by whoever forces (acquire). */
        private long written;
        /** Everything before this offset is forced; guarded by {@code this}. */
        private long forcedTo;
        /** The file grew or shrank since the last force, so its length must be forced too. */
        private final AtomicBoolean resized = new AtomicBoolean();

        MappedSegment(Path file, boolean writable, int capacity) {
            super(file, writable);
            long length = super.size();
            if (!writable && length > Integer.MAX_VALUE) {
                throw new BitCaskException("segment " + file + " is larger than a mapping can hold: " + length);
            }
            if (writable) {
                int mapSize = (int) Math.max(capacity, Math.min(length, Integer.MAX_VALUE));
                long allocated = length;
                if (length < mapSize) {
                    // Allocate the first chunk with real bytes before the mapping (which grows the
                    // file sparsely to mapSize) so the first writes never land in a hole.
                    allocated = Math.min(mapSize, length + ALLOCATION_CHUNK);
                    allocate(length, allocated);
                    resized.set(true);
                }
                this.buffer = repairing(ch -> ch.map(FileChannel.MapMode.READ_WRITE, 0, mapSize), "map");
                this.readable = allocated;
            } else {
                this.buffer = repairing(ch -> ch.map(FileChannel.MapMode.READ_ONLY, 0, length), "map");
                this.readable = length;
            }
        }

        private void allocate(long from, long to) {
            long pos = from;
            while (pos < to) {
                ByteBuffer zeros = ZEROS.duplicate();
                zeros.limit((int) Math.min(zeros.capacity(), to - pos));
                writeFully(pos, zeros);
                pos += zeros.limit();
            }
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            ensureOpen();
            if (position < 0 || position + len > readable) {
                throw new BitCaskException("read of " + len + " bytes at " + position + " is outside " + file
                        + " (" + readable + " bytes)");
            }
            buffer.get((int) position, dst, off, len);
        }

        @Override
        public void write(long position, byte[] src, int off, int len) {
            ensureOpen();
            long end = position + len;
            if (end > buffer.capacity()) {
                throw new BitCaskException("write past the mapped capacity of " + file + ": " + end);
            }
            if (end > readable) {
                long target = Math.min(buffer.capacity(), Math.max(end, readable + ALLOCATION_CHUNK));
                allocate(readable, target);
                resized.set(true);
                readable = target;
            }
            buffer.put((int) position, src, off, len);
            if (end > written) {
                WRITTEN.setRelease(this, end);
            } else {
                forcedFrom(position); // a rewrite below the forced mark (the file header of a reused file)
            }
        }

        private synchronized void forcedFrom(long position) {
            forcedTo = Math.min(forcedTo, position);
        }

        @Override
        public void force() {
            ensureOpen();
            forceMapped();
        }

        /**
         * Forces {@code [forcedTo, written)}. Safe against a concurrent writer: records are appended
         * at rising offsets, so whatever lies past the {@code written} read here is forced next time.
         */
        private synchronized void forceMapped() {
            long to = Math.min((long) WRITTEN.getAcquire(this), readable);
            if (to > forcedTo) {
                try {
                    buffer.force((int) forcedTo, (int) (to - forcedTo));
                } catch (UncheckedIOException e) {
                    throw new BitCaskException("msync failed on " + file + ": " + e.getCause().getMessage(), e.getCause());
                }
                forcedTo = to;
            }
            if (resized.getAndSet(false)) {
                // msync does not persist a new file length; fdatasync does.
                forceChannel();
            }
        }

        @Override
        public long size() {
            return writable ? super.size() : readable;
        }

        @Override
        public void truncate(long size) {
            super.truncate(size);
            readable = Math.min(readable, size);
            resized.set(true);
        }

        @Override
        void release() {
            try {
                if (writable) {
                    forceMapped();
                }
            } finally {
                Unmapper.unmap(buffer);
            }
        }
    }
}
