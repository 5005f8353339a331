package io.caskbench.bench.store.adapter;

import io.caskbench.bitcask.Backend;
import java.nio.file.Path;

/**
 * Every store the store suites measure. The enum constant names are the values of the benchmarks'
 * {@code store} parameter, so they appear verbatim in the JMH results; bench-report's {@code StoreCatalog}
 * says how each is labelled, what it is in the comparison and what survives a {@code kill -9}
 * ({@code StoreKindTest} keeps the two lists equal).
 */
public enum StoreKind {

    /** BitCask on its mapped backend: the reference every other store is compared with. */
    BITCASK_MAPPED(Backend.MAPPED),
    /** BitCask on positional FileChannel reads and writes. */
    BITCASK_FILE_CHANNEL(Backend.FILE_CHANNEL),
    /**
     * BitCask on FFM memory segments: JDK 22 and newer only (see {@link #available()}); on an older JVM
     * a run that names it fails with the store's message saying so.
     */
    BITCASK_MEMORY_SEGMENT(Backend.MEMORY_SEGMENT),
    /** RocksDB through rocksdbjni; waiting writers block instead of spinning. */
    ROCKSDB((dir, config) -> new RocksDbStore(dir)),
    /** LMDB through lmdbjava; a thread's read transaction is renewed when a put has committed since. */
    LMDB((dir, config) -> new LmdbStore(dir, config, LmdbStore.Renewal.AFTER_WRITE)),
    /** Chronicle Map persisted to a file, with up to 8192 segments. */
    CHRONICLE_MAP((dir, config) -> new ChronicleMapStore(dir, config)),
    /** MapDB's {@code HTreeMap} in a memory-mapped file, transactions off. */
    MAPDB((dir, config) -> new MapDbStore(dir, false)),
    /** H2's MVStore used as a map, auto-commit about once a second. */
    H2_MVSTORE((dir, config) -> new MvStoreStore(dir, false)),
    /** MapDB with transactions and a commit per put: its setting that survives {@code kill -9}. */
    MAPDB_TX((dir, config) -> new MapDbStore(dir, true)),
    /** H2 MVStore with a commit per put: its setting that survives {@code kill -9}. */
    H2_MVSTORE_COMMIT((dir, config) -> new MvStoreStore(dir, true)),
    /** Sensitivity: LMDB with a thread's read transaction renewed every 100 gets, writes or not. */
    LMDB_RENEW_100((dir, config) -> new LmdbStore(dir, config, LmdbStore.Renewal.EVERY_100)),
    /** Sensitivity: LMDB with one read transaction per thread, never renewed. */
    LMDB_TXN_REUSED((dir, config) -> new LmdbStore(dir, config, LmdbStore.Renewal.NEVER)),
    /** A heap {@code ConcurrentHashMap} of byte arrays: a reference point, not a peer. */
    CONCURRENT_HASH_MAP((dir, config) -> new HeapMapStore(config)),
    /**
     * The in-memory reference: a presized index of longs and a value slab, a store's copies without a file.
     * A point of comparison, not an upper bound: a store may beat it.
     */
    IN_MEMORY_REFERENCE((dir, config) -> new InMemoryReferenceStore(config)),
    /** No store: the harness alone (fetch the key, call the adapter), what every other row includes. */
    HARNESS((dir, config) -> new HarnessStore());

    /** Opens a store in a directory. */
    private interface Opener {
        StoreAdapter open(Path dir, StoreConfig config);
    }

    private final Opener opener;
    /** The BitCask backend of a BitCask row; null for every other store. */
    private final Backend backend;

    StoreKind(Opener opener) {
        this.opener = opener;
        this.backend = null;
    }

    StoreKind(Backend backend) {
        this.opener = (dir, config) -> new BitCaskStore(dir, config, backend);
        this.backend = backend;
    }

    /** The BitCask row of {@code backend}. */
    public static StoreKind of(Backend backend) {
        for (StoreKind k : values()) {
            if (k.backend == backend) {
                return k;
            }
        }
        throw new IllegalArgumentException("no store kind for backend " + backend);
    }

    /** True when this JVM can open the store: every one but BitCask on a backend this JVM lacks. */
    public boolean available() {
        return backend == null || backend.available();
    }

    /** Opens (creating if needed) this store in {@code dir}, which must exist. */
    public StoreAdapter open(Path dir, StoreConfig config) {
        return opener.open(dir, config);
    }
}
