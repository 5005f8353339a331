package io.caskbench.bench.store.adapter;

import java.nio.file.Path;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;

/**
 * MapDB 3 {@code HTreeMap} in a file, with its fastest settings.
 *
 * <ul>
 *   <li>Memory-mapped file, not pre-cleared, with the cleaner hack so mappings are released on close.</li>
 *   <li>Transactions off (MapDB's default): no write-ahead log and no commit per put; data reaches the
 *       file through the mapping, as BitCask {@code NONE} reaches it through the page cache.</li>
 *   <li>16 lock segments, so many threads rarely wait on the same lock.</li>
 *   <li>The file grows in 16 MiB steps rather than MapDB's default 1 MiB, so growing rarely interrupts
 *       puts, while the disk figure stays within one step of what MapDB needs.</li>
 * </ul>
 */
final class MapDbStore implements StoreAdapter {

    private final DB db;
    private final HTreeMap<byte[], byte[]> map;

    MapDbStore(Path dir) {
        db = DBMaker.fileDB(dir.resolve("map.db").toFile())
                .fileMmapEnableIfSupported()
                .fileMmapPreclearDisable()
                .cleanerHackEnable()
                .concurrencyScale(16)
                .allocateIncrement(16L << 20)
                .make();
        map = db.hashMap("caskbench", Serializer.BYTE_ARRAY, Serializer.BYTE_ARRAY).createOrOpen();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public void settle() {
        db.commit();
    }

    @Override
    public void close() {
        db.close();
    }
}
