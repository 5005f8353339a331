package io.caskbench.bench.store.overwrite;

import java.nio.file.Path;
import org.rocksdb.HistogramData;
import org.rocksdb.HistogramType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.WriteOptions;

/**
 * RocksDB under the overwrite load, with leveled compaction as its options say and statistics on, so its
 * compactions are counted and timed by RocksDB itself ({@code COMPACTION_TIME}). Writes go through the WAL,
 * unsynced, as BitCask leaves durability to the page cache.
 */
final class RocksDbTarget implements OverwriteTarget {

    static {
        RocksDB.loadLibrary();
    }

    private final Path dir;
    private final Options options;
    private final Statistics statistics;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    /** Set by {@link #close()}; called from one thread. */
    private boolean closed;

    /** Opens RocksDB in {@code dir} with {@code options}, which this target then owns and closes. */
    RocksDbTarget(Path dir, Options options) {
        this.dir = dir;
        this.options = options;
        this.statistics = new Statistics();
        options.setStatistics(statistics);
        this.writeOptions = new WriteOptions().setSync(false);
        try {
            this.db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            writeOptions.close();
            statistics.close();
            options.close();
            throw new IllegalStateException("cannot open RocksDB in " + dir, e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(writeOptions, key, value);
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB put failed", e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB get failed", e);
        }
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public long compactions() {
        return compactionTime().getCount();
    }

    @Override
    public long compactionMillis() {
        return compactionTime().getSum() / 1_000; // microseconds
    }

    @Override
    public long longestCompactionMillis() {
        HistogramData h = compactionTime();
        return h.getCount() == 0 ? -1 : Math.round(h.getMax() / 1_000);
    }

    /** RocksDB counts the bytes all compactions read, not one compaction's: unknown here. */
    @Override
    public long largestCompactionBytes() {
        return -1;
    }

    /** {@code max_compaction_bytes}: the input a compaction aims to stay under, not a hard bound. */
    @Override
    public long compactionInputBound() {
        return -1;
    }

    private HistogramData compactionTime() {
        return statistics.getHistogramData(HistogramType.COMPACTION_TIME);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        db.close();
        writeOptions.close();
        statistics.close();
        options.close();
    }
}
