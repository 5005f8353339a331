package io.caskbench.bench.store.adapter;

import java.nio.file.Path;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * H2's MVStore (the storage engine under the H2 database) used directly as a key-value map, with its
 * fastest settings or at the setting that survives a {@code kill -9} like BitCask.
 *
 * <ul>
 *   <li>Fastest ({@code H2_MVSTORE}): auto-commit stays on (the default): a background thread writes
 *       changed pages to the file about once a second, and nothing is forced. This does not hold
 *       BitCask's crash contract: acknowledged puts wait in memory until that commit, and a
 *       {@code kill -9} right after 20,000 acknowledged puts left none of them in the file here.</li>
 *   <li>Crash parity ({@code H2_MVSTORE_COMMIT}): {@code commit()} after every put, which writes the
 *       change to the file before the put returns, without forcing it (strace counts no fsync).</li>
 *   <li>The write buffer is raised from 1 MiB to 64 MiB, which made 1M random puts about 1.2-3x
 *       faster here and the file smaller, because fewer copy-on-write chunks are written.</li>
 *   <li>A 256 MiB page cache, the same budget RocksDB gets for its block cache, so reads of a
 *       1M-key store are served from memory.</li>
 *   <li>No compression: the values are random bytes.</li>
 * </ul>
 *
 * <p>An MVMap keeps the very arrays it is given in its in-memory pages and hands them back from
 * {@code get}, so the adapter copies keys and values on the way in and values on the way out, as every
 * other store does internally; without that a caller reusing its buffers would corrupt the map.
 */
final class MvStoreStore implements StoreAdapter {

    private static final int CACHE_MB = 256;
    private static final int WRITE_BUFFER_KB = 64 * 1024;

    private final MVStore store;
    private final MVMap<byte[], byte[]> map;
    private final boolean commitEachPut;

    MvStoreStore(Path dir, boolean commitEachPut) {
        this.commitEachPut = commitEachPut;
        store = new MVStore.Builder()
                .fileName(dir.resolve("store.mv").toString())
                .cacheSize(CACHE_MB)
                .autoCommitBufferSize(WRITE_BUFFER_KB)
                .open();
        map = store.openMap("caskbench");
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(key.clone(), value.clone());
        if (commitEachPut) {
            store.commit();
        }
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = map.get(key);
        return value == null ? null : value.clone();
    }

    @Override
    public void settle() {
        store.commit();
    }

    @Override
    public void close() {
        store.close();
    }
}
