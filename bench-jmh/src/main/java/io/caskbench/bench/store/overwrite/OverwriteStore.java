package io.caskbench.bench.store.overwrite;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;

/**
 * The stores the sustained-overwrite suite runs, each with all of its settings here and nowhere else, so a
 * new setting (a merge selection option, say) is added in one place.
 *
 * <p>Values are random bytes, so compression would only cost time: RocksDB runs without it in both
 * settings. No store forces data to the device per operation.
 */
public enum OverwriteStore {

    /** BitCask, mapped backend, automatic merge on at its default thresholds. */
    BITCASK_DEFAULT,
    /**
     * BitCask, mapped backend, automatic merge checked every second and started at a quarter of the bytes
     * dead (or 64 MiB dead), so garbage is reclaimed in smaller, more frequent merges.
     */
    BITCASK_TUNED,
    /** RocksDB with leveled compaction at its defaults (compression off). */
    ROCKSDB_DEFAULT,
    /**
     * RocksDB, leveled, sized for point overwrites: larger memtables (fewer, larger L0 files), dynamic level
     * sizes, background jobs for each core, a point-lookup block cache and bloom filters.
     */
    ROCKSDB_TUNED;

    /** Opens this store in {@code dir}, sized for {@code keys} keys. */
    public OverwriteTarget open(Path dir, long keys) {
        return switch (this) {
            case BITCASK_DEFAULT -> new BitCaskTarget(dir, bitcask(keys).build());
            case BITCASK_TUNED -> new BitCaskTarget(dir, bitcask(keys).mergeDeadRatio(0.25)
                    .mergeDeadBytes(64L << 20).mergeCheckInterval(Duration.ofSeconds(1)).build());
            case ROCKSDB_DEFAULT -> new RocksDbTarget(dir, rocksdb());
            case ROCKSDB_TUNED -> new RocksDbTarget(dir, rocksdb()
                    .optimizeForPointLookup(256)
                    .setWriteBufferSize(128L << 20)
                    .setMaxWriteBufferNumber(4)
                    .setLevelCompactionDynamicLevelBytes(true)
                    .setIncreaseParallelism(Runtime.getRuntime().availableProcessors())
                    .setMaxBackgroundJobs(Math.max(2, Runtime.getRuntime().availableProcessors())));
        };
    }

    /** Whether this is BitCask. */
    public boolean bitcask() {
        return this == BITCASK_DEFAULT || this == BITCASK_TUNED;
    }

    private static BitCaskOptions.Builder bitcask(long keys) {
        return BitCaskOptions.builder().backend(Backend.MAPPED).syncPolicy(SyncPolicy.NONE).expectedKeys(keys)
                .autoMerge(true);
    }

    private static Options rocksdb() {
        return new Options().setCreateIfMissing(true).setCompressionType(CompressionType.NO_COMPRESSION);
    }
}
