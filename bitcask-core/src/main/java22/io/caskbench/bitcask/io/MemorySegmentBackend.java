package io.caskbench.bitcask.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Threading: stateless, safe everywhere; see {@link SegmentReader} and {@link SegmentWriter} for the files it opens.
 *
 * <p>Segments as {@link MemorySegment}s of the FFM API (JDK 22+): reads and writes are memory
 * copies with no system call, as with {@link MappedBackend}, whose allocation, bounds and force
 * rules ({@link MappedSegment}) this backend shares. What differs is how a mapping ends: each
 * segment maps its file into a shared {@link Arena} of its own, and closing the segment closes the
 * arena. The JDK stops every thread in a handshake before it unmaps: a thread in the middle of a
 * copy out of the mapping gets an {@link IllegalStateException} ("Already closed"), as does every
 * later access, and none touches unmapped memory. So the reader gate still keeps readers and
 * closers apart, but a flaw in it costs an exception, never the process. Nothing here touches
 * {@code sun.misc.Unsafe}.
 */
final class MemorySegmentBackend implements SegmentBackend {

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        return new MappedSegment(file, true, MappedBackend.mappableCapacity(capacity), ArenaMapping::map);
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        return new MappedSegment(file, false, -1, ArenaMapping::map);
    }

    /** Threading: as {@link MappedSegment.Mapping}. A file's bytes through a segment of its own shared arena. */
    private static final class ArenaMapping implements MappedSegment.Mapping {

        /** Final; shared, so any thread may access the memory and any one thread may close it. */
        private final Arena arena;
        /** Final; any thread copies in and out, and each access checks that the arena is open. */
        private final MemorySegment memory;

        private ArenaMapping(Arena arena, MemorySegment memory) {
            this.arena = arena;
            this.memory = memory;
        }

        static ArenaMapping map(FileChannel channel, FileChannel.MapMode mode, long size) throws IOException {
            Arena arena = Arena.ofShared();
            try {
                return new ArenaMapping(arena, channel.map(mode, 0, size, arena));
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        }

        @Override
        public void get(long position, byte[] dst, int off, int len) {
            MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, position, dst, off, len);
        }

        @Override
        public void put(long position, byte[] src, int off, int len) {
            MemorySegment.copy(src, off, memory, ValueLayout.JAVA_BYTE, position, len);
        }

        @Override
        public void force(long position, long length) {
            memory.asSlice(position, length).force();
        }

        /**
         * Closes the arena, which unmaps the file. It fails with {@link IllegalStateException} only
         * while an I/O call holds a buffer view of the memory, which this backend never makes.
         */
        @Override
        public void unmap() {
            arena.close();
        }
    }
}
