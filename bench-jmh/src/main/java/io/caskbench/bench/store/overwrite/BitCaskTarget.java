package io.caskbench.bench.store.overwrite;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * BitCask under the overwrite load, merging by itself as its options say.
 *
 * <p>An automatic merge hands its {@code MergeResult} to no caller, so its time is not known here
 * ({@link #compactionMillis()} is -1); merges are counted instead, from the sealed segments that have
 * disappeared since the last look (one look per interval, so two merges within an interval count once).
 */
final class BitCaskTarget implements OverwriteTarget {

    private final BitCask db;
    /** Sealed segment ids at the last look; measuring thread only. */
    private Set<Long> sealed = new HashSet<>();
    /** Looks that found a sealed segment gone; measuring thread only. */
    private long merges;

    BitCaskTarget(Path dir, BitCaskOptions options) {
        this.db = BitCask.open(dir, options);
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
        Set<Long> now = new HashSet<>();
        for (BitCaskStats.SegmentStats s : db.stats().segments()) {
            if (!s.active()) {
                now.add(s.id());
            }
        }
        if (!now.containsAll(sealed)) {
            merges++;
        }
        sealed = now;
        return merges;
    }

    @Override
    public long compactionMillis() {
        return -1;
    }

    @Override
    public void close() {
        db.close();
    }
}
