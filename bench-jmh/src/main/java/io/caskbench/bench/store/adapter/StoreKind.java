package io.caskbench.bench.store.adapter;

import io.caskbench.bitcask.Backend;
import java.nio.file.Path;

/**
 * Every store the store suites measure. The enum constant names are the values of the benchmarks'
 * {@code store} parameter, so they appear verbatim in the JMH results.
 */
public enum StoreKind {

    /** BitCask on its mapped backend: the reference every other store is compared with. */
    BITCASK_MAPPED(Role.BITCASK, (dir, config) -> new BitCaskStore(dir, config, Backend.MAPPED)),
    /** BitCask on positional FileChannel reads and writes. */
    BITCASK_FILE_CHANNEL(Role.BITCASK, (dir, config) -> new BitCaskStore(dir, config, Backend.FILE_CHANNEL)),
    /** RocksDB through rocksdbjni. */
    ROCKSDB(Role.PEER, (dir, config) -> new RocksDbStore(dir)),
    /** LMDB through lmdbjava. */
    LMDB(Role.PEER, LmdbStore::new),
    /** Chronicle Map persisted to a file. */
    CHRONICLE_MAP(Role.PEER, ChronicleMapStore::new),
    /** MapDB's {@code HTreeMap} in a memory-mapped file. */
    MAPDB(Role.PEER, (dir, config) -> new MapDbStore(dir)),
    /** H2's MVStore used as a map. */
    H2_MVSTORE(Role.PEER, (dir, config) -> new MvStoreStore(dir)),
    /** A heap {@code ConcurrentHashMap} of byte arrays: a reference point, neither a peer nor a bound. */
    CONCURRENT_HASH_MAP(Role.REFERENCE, (dir, config) -> new HeapMapStore(config)),
    /** The in-memory bound: a presized index of longs and a value slab, a store's copies without a file. */
    IN_MEMORY_BOUND(Role.BOUND, (dir, config) -> new MemoryBoundStore(config)),
    /** No store: the harness alone (fetch the key, call the adapter), what every other row includes. */
    HARNESS(Role.HARNESS, (dir, config) -> new HarnessStore());

    /** What a store is in the comparison. */
    public enum Role {
        /** The store under test. */
        BITCASK,
        /** An embedded store a user might pick instead. */
        PEER,
        /** A well-known in-memory structure to read the figures against; not a bound. */
        REFERENCE,
        /** The same copies as a store, without a file: what no store that copies its data can beat. */
        BOUND,
        /** Not a store: the cost of the benchmark harness itself. */
        HARNESS
    }

    /** Opens a store in a directory. */
    private interface Opener {
        StoreAdapter open(Path dir, StoreConfig config);
    }

    private final Role role;
    private final Opener opener;

    StoreKind(Role role, Opener opener) {
        this.role = role;
        this.opener = opener;
    }

    /** Opens (creating if needed) this store in {@code dir}, which must exist. */
    public StoreAdapter open(Path dir, StoreConfig config) {
        return opener.open(dir, config);
    }

    /** What this store is in the comparison. */
    public Role role() {
        return role;
    }
}
