package io.caskbench.bench.store.adapter;

import java.nio.file.Path;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;

/**
 * MapDB 3 {@code HTreeMap} in a file, with its fastest settings, or at the setting that survives a
 * {@code kill -9} like BitCask.
 *
 * <ul>
 *   <li>Memory-mapped file, not pre-cleared, with the cleaner hack so mappings are released on close.</li>
 *   <li>Fastest ({@code MAPDB}): transactions off (MapDB's default), no write-ahead log and no commit per
 *       put; data reaches the file through the mapping. This does not hold BitCask's crash contract: a
 *       {@code kill -9} after acknowledged puts leaves a file MapDB refuses to reopen ("Header checksum
 *       broken. Store was not closed correctly"), measured here with 20,000 puts.</li>
 *   <li>Crash parity ({@code MAPDB_TX}): transactions on and a commit after every put, the only MapDB
 *       setting under which acknowledged puts survive a {@code kill -9}. Each commit forces the write-ahead
 *       log (one {@code msync} per commit, counted with strace) even with {@code fileSyncDisable()},
 *       which is set anyway; so this row also pays for a force BitCask {@code NONE} does not make.</li>
 *   <li>16 lock segments, so many threads rarely wait on the same lock.</li>
 *   <li>The file grows in 16 MiB steps rather than MapDB's default 1 MiB, so growing rarely interrupts
 *       puts, while the disk figure stays within one step of what MapDB needs.</li>
 * </ul>
 */
final class MapDbStore implements StoreAdapter {

    private final DB db;
    private final HTreeMap<byte[], byte[]> map;
    private final boolean commitEachPut;

    MapDbStore(Path dir, boolean commitEachPut) {
        DBMaker.Maker maker = DBMaker.fileDB(dir.resolve("map.db").toFile())
                .fileMmapEnableIfSupported()
                .fileMmapPreclearDisable()
                .cleanerHackEnable()
                .concurrencyScale(16)
                .allocateIncrement(16L << 20);
        db = (commitEachPut ? maker.transactionEnable().fileSyncDisable() : maker).make();
        map = db.hashMap("caskbench", Serializer.BYTE_ARRAY, Serializer.BYTE_ARRAY).createOrOpen();
        this.commitEachPut = commitEachPut;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(key, value);
        if (commitEachPut) {
            db.commit();
        }
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
