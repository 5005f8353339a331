package io.caskbench.bench.store.overwrite;

import java.nio.file.Path;

/**
 * One store under the sustained-overwrite load: puts and gets from many threads, and what it did in the
 * background. Implementations copy the arrays they are given.
 */
public interface OverwriteTarget extends AutoCloseable {

    /** Stores {@code value} under {@code key}. */
    void put(byte[] key, byte[] value);

    /** The value under {@code key}, or null. */
    byte[] get(byte[] key);

    /** The folder the store's files are in: what its disk usage is measured on. */
    Path directory();

    /** Merges or compactions seen since the store was opened; called by the measuring thread only. */
    long compactions();

    /** Milliseconds spent in them since the store was opened, or -1 when the store does not report it. */
    long compactionMillis();

    /** Milliseconds of the longest single merge or compaction so far, or -1 when none ran or the store does not say. */
    long longestCompactionMillis();

    /** Input bytes of the largest single merge or compaction so far, or -1 when none ran or the store does not say. */
    long largestCompactionBytes();

    /** The most input bytes one merge or compaction may take by the store's settings, or -1 when it sets none. */
    long compactionInputBound();

    /** Closes the store; its files stay. Idempotent. */
    @Override
    void close();
}
