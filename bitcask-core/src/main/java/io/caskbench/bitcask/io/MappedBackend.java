package io.caskbench.bitcask.io;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Threading: stateless, safe everywhere; see {@link SegmentReader} and {@link SegmentWriter} for the files it opens.
 *
 * <p>Segments as {@link MappedByteBuffer}s: reads and writes are memory copies with no system call.
 * How a segment is allocated, bounds-checked and forced is {@link MappedSegment}'s, shared with the
 * JDK 22+ {@code MemorySegment} backend; what is this backend's own is the buffer, and that it is
 * released through {@link Unmapper}. An access to a released buffer crashes the JVM, so every
 * reader runs inside the {@link ReaderGate} that close and merge wait on before they release one.
 */
public final class MappedBackend implements SegmentBackend {

    /** How far ahead of the write position the file is allocated with real zero bytes. */
    public static final int ALLOCATION_CHUNK = MappedSegment.ALLOCATION_CHUNK;

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        return new MappedSegment(file, true, mappableCapacity(capacity), BufferMapping::map);
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        return new MappedSegment(file, false, -1, BufferMapping::map);
    }

    /** {@code capacity} as a mapping size; both mapped backends hold a segment in one int-sized mapping. */
    static int mappableCapacity(long capacity) {
        if (capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a mapped segment holds at most " + Integer.MAX_VALUE + " bytes: " + capacity);
        }
        return (int) capacity;
    }

    /** Threading: as {@link MappedSegment.Mapping}. A file's bytes through one {@link MappedByteBuffer}. */
    private static final class BufferMapping implements MappedSegment.Mapping {

        /** Final; absolute gets and puts only, so any thread may use it. */
        private final MappedByteBuffer buffer;

        private BufferMapping(MappedByteBuffer buffer) {
            this.buffer = buffer;
        }

        static BufferMapping map(FileChannel channel, FileChannel.MapMode mode, long size) throws IOException {
            return new BufferMapping(channel.map(mode, 0, size));
        }

        @Override
        public void get(long position, byte[] dst, int off, int len) {
            buffer.get((int) position, dst, off, len);
        }

        @Override
        public void put(long position, byte[] src, int off, int len) {
            buffer.put((int) position, src, off, len);
        }

        @Override
        public void force(long position, long length) {
            buffer.force((int) position, (int) length);
        }

        @Override
        public void unmap() {
            Unmapper.unmap(buffer);
        }
    }
}
