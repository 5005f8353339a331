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
 * in what a flaw in the store could cost. The default ({@link #defaultBackend()}) is
 * {@link #MEMORY_SEGMENT} where it is {@linkplain #available() available}, {@link #MAPPED} elsewhere.
 * Measured on Temurin 25 (1M keys, 100-byte values, random order, two interleaved runs of two forks
 * each), {@code MEMORY_SEGMENT} over {@code MAPPED} was 1.02 and 1.04 for gets and 0.96 and 1.01 for
 * puts on one thread, 1.41 and 0.95 for gets and 1.02 and 0.97 for puts on 1000 threads: level within
 * the noise, with no difference keeping its sign in both runs but single-thread gets, where
 * {@code MEMORY_SEGMENT} was the faster. Being no slower, the backend whose
 * lost race is an exception rather than a crash, and which makes the JDK print no {@code Unsafe}
 * warning, is the default. The commands are in docs/usage.md.
 */
public enum Backend {
    /**
     * {@code MappedByteBuffer}s: reads and writes are memory copies. The default on JDK 17 to 21. A
     * mapping is released at once through {@code sun.misc.Unsafe}, which makes JDK 24 and newer print a
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
     * {@link #available()}); elsewhere choosing it throws {@link IllegalArgumentException}. The default
     * where it is available.
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
     * The backend a store uses when none is chosen: {@link #MEMORY_SEGMENT} when this JVM and this jar
     * have it (JDK 22 or newer, a jar built on one), else {@link #MAPPED}.
     */
    public static Backend defaultBackend() {
        return MEMORY_SEGMENT.available() ? MEMORY_SEGMENT : MAPPED;
    }

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
