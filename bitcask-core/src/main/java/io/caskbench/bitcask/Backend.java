package io.caskbench.bitcask;

import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.MappedBackend;
import io.caskbench.bitcask.io.MemorySegmentSupport;
import io.caskbench.bitcask.io.SegmentBackend;

/**
 * Threading: an enum, safe everywhere.
 *
 * <p>How segment bytes move between the files and the heap. Every backend keeps the same contract:
 * the same file format, durability, lock-free reads and failure behaviour; they differ in speed and
 * in what a flaw in the store could cost.
 */
public enum Backend {
    /**
     * {@code MappedByteBuffer}s: reads and writes are memory copies. The default. A mapping is
     * released at once through {@code sun.misc.Unsafe}, which makes JDK 24 and newer print a
     * deprecation warning once per process, and a read of a released mapping would crash the JVM
     * (the store's reader gate keeps readers out of one).
     */
    MAPPED {
        @Override
        SegmentBackend create() {
            return new MappedBackend();
        }
    },
    /** Positional {@code FileChannel} reads and writes: one system call each, no mapped memory. */
    FILE_CHANNEL {
        @Override
        SegmentBackend create() {
            return new FileChannelBackend();
        }
    },
    /**
     * {@code MemorySegment}s of the FFM API, each file mapped in an {@code Arena} of its own: memory
     * copies as with {@code MAPPED}, released by closing the arena, with no {@code sun.misc.Unsafe}
     * and so no warning; a read that raced the release would get an {@code IllegalStateException},
     * never crash the JVM. Needs JDK 22 or newer and a bitcask-core jar built on one (see
     * {@link #available()}); elsewhere choosing it throws {@link IllegalArgumentException}.
     */
    MEMORY_SEGMENT {
        @Override
        SegmentBackend create() {
            return MemorySegmentSupport.create();
        }

        @Override
        public boolean available() {
            return MemorySegmentSupport.available();
        }

        @Override
        void requireAvailable() {
            MemorySegmentSupport.requireAvailable();
        }
    };

    /**
     * True when a store can use this backend here: always, except {@link #MEMORY_SEGMENT} on a JVM
     * older than 22 or from a bitcask-core jar built on one.
     */
    public boolean available() {
        return true;
    }

    /** Throws {@link IllegalArgumentException}, saying what is missing, when not {@link #available()}. */
    void requireAvailable() {
        // every backend but MEMORY_SEGMENT runs everywhere
    }

    abstract SegmentBackend create();
}
