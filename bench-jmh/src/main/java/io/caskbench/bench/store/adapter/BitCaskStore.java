package io.caskbench.bench.store.adapter;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;
import java.nio.file.Path;

/**
 * BitCask, the store under test, with the settings a user would pick for speed.
 *
 * <ul>
 *   <li>{@code SyncPolicy.NONE}: writes reach the page cache (or the mapping) and the OS writes them
 *       back; they survive a process crash, not a power cut. Every peer is configured to match.</li>
 *   <li>The key directory is sized for the workload at open ({@code expectedKeys}), as the
 *       heap map, the in-memory reference and Chronicle Map are, so it never grows while measured.</li>
 *   <li>Default 64 MiB segments and no automatic merge: put rounds start from an empty store, so
 *       there is nothing to merge.</li>
 * </ul>
 */
final class BitCaskStore implements StoreAdapter {

    private final BitCask db;

    BitCaskStore(Path dir, StoreConfig config, Backend backend) {
        db = BitCask.open(dir, BitCaskOptions.builder()
                .backend(backend)
                .syncPolicy(SyncPolicy.NONE)
                .expectedKeys(config.expectedKeys())
                .maxValueSize(Math.max(config.valueSize(), 1))
                .autoMerge(false)
                .build());
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
    public void settle() {
        db.sync();
    }

    @Override
    public long indexBytes() {
        return db.stats().indexBytes();
    }

    @Override
    public void close() {
        db.close();
    }
}
