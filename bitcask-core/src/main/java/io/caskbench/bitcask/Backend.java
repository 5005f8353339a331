package io.caskbench.bitcask;

import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.MappedBackend;
import io.caskbench.bitcask.io.SegmentBackend;

/**
 * Threading: an enum, safe everywhere.
 *
 * <p>How segment bytes move between the files and the heap.
 */
public enum Backend {
    /** {@code MappedByteBuffer}s: reads and writes are memory copies. The default and the fastest. */
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
    };

    abstract SegmentBackend create();
}
