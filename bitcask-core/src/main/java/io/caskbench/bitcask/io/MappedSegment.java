package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threading: reads from any thread without a lock; writes from any thread, at once into disjoint
 * ranges (puts copy into the ranges they reserved), growing the file under {@code allocation};
 * forces serialized on {@code this}; truncation and close by the log writer with no write under way.
 *
 * <p>A segment file mapped whole into memory: what both mapped backends share. They differ only in
 * the {@link Mapping} that reaches the bytes ({@code MappedByteBuffer} for {@link MappedBackend}, a
 * {@code MemorySegment} of its own arena for {@code MEMORY_SEGMENT} on JDK 22+), so the allocation,
 * bounds and force rules below hold for both alike.
 *
 * <p>A writable segment maps its whole capacity once. Mapping alone would make the file sparse,
 * and a write into a hole on a full disk kills the JVM with SIGBUS; so the file is first grown
 * with real zero writes, {@link #ALLOCATION_CHUNK} at a time, ahead of the write position. A full
 * disk then surfaces as an exception from {@link #write}, before any byte of the record is stored.
 * Reads are bounds-checked against what was allocated, so a wild offset can never touch unmapped
 * file space.
 */
final class MappedSegment extends FileSegment {

    /** How far ahead of the write position the file is allocated with real zero bytes. */
    static final int ALLOCATION_CHUNK = 1 << 20;

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(ALLOCATION_CHUNK);
    private static final VarHandle WRITTEN;

    static {
        try {
            WRITTEN = MethodHandles.lookup().findVarHandle(MappedSegment.class, "written", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Final; read by any thread, written by any writing thread into its own range, released once by close. */
    private final Mapping mapping;
    /** Final, safe everywhere: the mapped length. */
    private final long capacity;
    /** Bytes that exist in the file and may be read; any thread reads, raised under {@code allocation}. */
    private volatile long readable;
    /** Guards the growth of the file ahead of the writes. */
    private final Object allocation = new Object();
    /**
     * Set while a writer grows the file ahead of the writes, before they need it: the others copy on
     * into what is allocated instead of queueing on {@code allocation}. Any writing thread.
     */
    private final AtomicBoolean growing = new AtomicBoolean();
    /** End of the highest write; raised by compare-and-set after a copy, read by whoever forces (acquire). */
    private long written;
    /**
     * Lowest offset written since the last force took its range: any writing thread lowers it after
     * its copy, a force takes it (and puts it back when the force fails). Before it, everything is
     * forced or being forced.
     */
    private final AtomicLong dirtyFrom = new AtomicLong();
    /** The file grew or shrank since the last force, so its length must be forced too; any thread. */
    private final AtomicBoolean resized = new AtomicBoolean();

    /**
     * Opens and maps {@code file}: its whole {@code capacity} (or its length, if longer) when
     * writable, its length when read-only.
     */
    MappedSegment(Path file, boolean writable, int capacity, Mapper mapper) {
        super(file, writable);
        try {
            long length = super.size();
            if (!writable && length > Integer.MAX_VALUE) {
                throw new BitCaskException("segment " + file + " is larger than a mapping can hold: " + length);
            }
            if (writable) {
                int mapSize = (int) Math.max(capacity, Math.min(length, Integer.MAX_VALUE));
                long allocated = length;
                if (length < mapSize) {
                    // Allocate the first chunk with real bytes before the mapping (which grows the
                    // file sparsely to mapSize) so the first writes never land in a hole. On a full
                    // disk the segment still opens, so a store can open to serve reads: the first
                    // write then allocates, and fails with the disk's error before storing a byte.
                    allocated = Math.min(mapSize, length + ALLOCATION_CHUNK);
                    try {
                        allocate(length, allocated);
                    } catch (BitCaskException noRoom) {
                        allocated = length;
                    }
                    resized.set(true);
                }
                this.mapping = repairing(ch -> mapper.map(ch, FileChannel.MapMode.READ_WRITE, mapSize), "map");
                this.capacity = mapSize;
                this.readable = allocated;
            } else {
                this.mapping = repairing(ch -> mapper.map(ch, FileChannel.MapMode.READ_ONLY, length), "map");
                this.capacity = length;
                this.readable = length;
                keepNoDescriptor(); // the mapping is all a reader needs
            }
        } catch (RuntimeException | Error e) {
            abandon(e); // nothing is mapped: the channel is all there is to close
            throw e;
        }
    }

    /** Allocates at least up to {@code end} (at most the capacity), a chunk at a time. */
    private void grow(long end) {
        synchronized (allocation) {
            if (end > readable) {
                long target = Math.min(capacity, Math.max(end, readable + ALLOCATION_CHUNK));
                allocate(readable, target);
                resized.set(true);
                readable = target;
            }
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
        mapping.get(position, dst, off, len);
    }

    /** No: a write is a copy into the mapping, and joining records first would copy them twice. */
    @Override
    public boolean writesBySystemCall() {
        return false;
    }

    @Override
    public void write(long position, byte[] src, int off, int len) {
        ensureOpen();
        long end = position + len;
        if (end > capacity) {
            throw new BitCaskException("write past the mapped capacity of " + file + ": " + end);
        }
        if (end > readable) {
            grow(end);
        } else if (end > readable - ALLOCATION_CHUNK / 2 && readable < capacity && growing.compareAndSet(false, true)) {
            try {
                grow(end + ALLOCATION_CHUNK / 2); // one writer grows ahead; the others copy on
            } finally {
                growing.set(false);
            }
        }
        mapping.put(position, src, off, len);
        // Written end first, then the dirty mark: a force that takes the mark reads an end past this copy.
        for (long w; (w = (long) WRITTEN.getAcquire(this)) < end; ) {
            if (WRITTEN.compareAndSet(this, w, end)) {
                break;
            }
        }
        if (dirtyFrom.get() > position) {
            dirtyFrom.accumulateAndGet(position, Math::min);
        }
    }

    @Override
    public void force() {
        ensureOpen();
        forceMapped();
    }

    /**
     * Forces {@code [dirtyFrom, written)}. Safe against concurrent copies, which finish in any
     * order: a copy that finishes after the mark is taken lowers it again, so the next force covers
     * it, and one that finished before it raised the written end that this force reads.
     */
    private synchronized void forceMapped() {
        long from = dirtyFrom.getAndSet(Long.MAX_VALUE);
        long to = Math.min((long) WRITTEN.getAcquire(this), readable);
        if (to > from) {
            try {
                mapping.force(from, to - from);
            } catch (UncheckedIOException e) {
                dirtyFrom.accumulateAndGet(from, Math::min);
                throw new BitCaskException("msync failed on " + file + ": " + e.getCause().getMessage(), e.getCause());
            } catch (RuntimeException | Error e) {
                dirtyFrom.accumulateAndGet(from, Math::min);
                throw e;
            }
        } else if (from != Long.MAX_VALUE) {
            dirtyFrom.accumulateAndGet(from, Math::min); // only past what may be read: keep it for later
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

    /** No more writes: the mapping serves the reads, so the file descriptor goes until a force or cut needs it. */
    @Override
    public void sealed() {
        keepNoDescriptor();
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
            mapping.unmap();
        }
    }

    /**
     * Threading: as the segment that holds it; {@link #unmap} is called once, by close.
     *
     * <p>The mapped bytes of one file. Positions are checked by the segment before they get here.
     */
    interface Mapping {

        /** Copies {@code len} bytes at {@code position} into {@code dst}. */
        void get(long position, byte[] dst, int off, int len);

        /** Copies {@code len} bytes of {@code src} to {@code position}. */
        void put(long position, byte[] src, int off, int len);

        /**
         * Writes {@code [position, position + length)} back to the file.
         *
         * @throws UncheckedIOException when the device reports an error
         */
        void force(long position, long length);

        /**
         * Ends the mapping. A later access through a {@code MappedByteBuffer} would crash the JVM
         * (the reader gate keeps readers out); through a {@code MemorySegment} it throws
         * {@link IllegalStateException}.
         */
        void unmap();
    }

    /** Maps {@code size} bytes of a channel from offset 0. */
    @FunctionalInterface
    interface Mapper {
        /** The mapping, or an {@link IOException} that the segment turns into a {@code BitCaskException}. */
        Mapping map(FileChannel channel, FileChannel.MapMode mode, long size) throws IOException;
    }
}
