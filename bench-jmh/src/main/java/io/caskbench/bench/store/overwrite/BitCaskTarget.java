package io.caskbench.bench.store.overwrite;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskCounters;
import io.caskbench.bitcask.BitCaskOptions;
import java.nio.file.Path;

/**
 * BitCask under the overwrite load, merging by itself as its options say. Its merges are counted and timed
 * by the store itself ({@link BitCask#counters()}): every merge that rewrote something, automatic ones
 * included, with its wall time, the bytes it read and the longest and largest of them.
 */
final class BitCaskTarget implements OverwriteTarget {

    private final BitCask db;
    private final long inputBound;

    BitCaskTarget(Path dir, BitCaskOptions options) {
        this(BitCask.open(dir, options), options);
    }

    /** Takes over {@code db}, opened with {@code options}, and closes it when closed. */
    BitCaskTarget(BitCask db, BitCaskOptions options) {
        this.db = db;
        // The selection always takes its first segment, so one segment is the least bound it can keep.
        this.inputBound = Math.max(options.mergeMaxInputBytes(), options.segmentSize());
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return db.get(key);
    }

    @Override
    public Path directory() {
        return db.directory();
    }

    @Override
    public long compactions() {
        return db.counters().merges();
    }

    @Override
    public long compactionMillis() {
        return db.counters().mergeTime().toMillis();
    }

    @Override
    public long longestCompactionMillis() {
        BitCaskCounters c = db.counters();
        return c.merges() == 0 ? -1 : c.longestMerge().toMillis();
    }

    @Override
    public long largestCompactionBytes() {
        BitCaskCounters c = db.counters();
        return c.merges() == 0 ? -1 : c.largestMergeBytesRead();
    }

    @Override
    public long compactionInputBound() {
        return inputBound;
    }

    @Override
    public void close() {
        db.close();
    }
}
