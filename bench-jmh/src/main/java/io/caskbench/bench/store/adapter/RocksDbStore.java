package io.caskbench.bench.store.adapter;

import java.nio.file.Path;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * RocksDB (rocksdbjni) with its fastest settings that keep the same durability as BitCask {@code NONE}.
 *
 * <ul>
 *   <li>The write-ahead log stays on and {@code sync=false}: a write survives a process crash, like a
 *       BitCask record in the page cache. Turning the WAL off would be faster but would lose acknowledged
 *       writes on {@code kill -9}, which BitCask does not.</li>
 *   <li>{@code optimizeForPointLookup}: bloom filters, hash-indexed data blocks and a block cache, the
 *       configuration RocksDB recommends for a pure get/put workload without range scans.</li>
 *   <li>No compression: the benchmark values are random bytes, so compressing them only costs CPU.</li>
 *   <li>Background flushes and compactions may use both cores.</li>
 *   <li>{@link #close()} flushes the memtable and waits for it, so a put round's close holds RocksDB's
 *       deferred write as BitCask's holds its forces and hint files.</li>
 *   <li>Writers waiting for the write group block at once instead of spinning and yielding for up to
 *       100 us first ({@code enable_write_thread_adaptive_yield=false}): on 2 cores shared by 1000
 *       writers the spinning burns the time the group leader needs. It changes only how a waiting
 *       thread waits, not what is written or when (the same WAL record, the same group commit), and a
 *       single writer never waits, so it is the setting of every row.</li>
 * </ul>
 */
final class RocksDbStore implements StoreAdapter {

    private static final long BLOCK_CACHE_MB = 256;

    static {
        RocksDB.loadLibrary();
    }

    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;

    RocksDbStore(Path dir) {
        options = new Options()
                .setCreateIfMissing(true)
                .optimizeForPointLookup(BLOCK_CACHE_MB)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setIncreaseParallelism(Runtime.getRuntime().availableProcessors())
                .setMaxBackgroundJobs(Math.max(2, Runtime.getRuntime().availableProcessors()))
                .setEnableWriteThreadAdaptiveYield(false);
        writeOptions = new WriteOptions().setSync(false).setDisableWAL(false);
        try {
            db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            options.close();
            writeOptions.close();
            throw new IllegalStateException("cannot open RocksDB in " + dir, e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(writeOptions, key, value);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void settle() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
            // Gets then read a fully compacted tree instead of racing background compaction.
            db.compactRange();
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Flushes the memtable and waits for the flush, then closes. RocksDB's own close does not flush:
     * the reopen would replay the write-ahead log and write the table files then, outside every put
     * round's clock, while BitCask pays its forces and hint files inside it.
     */
    @Override
    public void close() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot flush RocksDB before its close", e);
        } finally {
            db.close();
            writeOptions.close();
            options.close();
        }
    }
}
