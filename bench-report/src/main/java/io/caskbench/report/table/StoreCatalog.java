package io.caskbench.report.table;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the report says about each value of the store suites' {@code store} parameter: how to label it,
 * what it is in the comparison, and what a {@code kill -9} leaves of the writes it acknowledged. bench-jmh's
 * {@code StoreKind} opens the stores; a test there keeps the two lists equal. Order is table order.
 */
public final class StoreCatalog {

    /** What a row is in the comparison. */
    public enum Role {
        /** The store under test. */
        BITCASK,
        /** An embedded store a user might pick instead, at its fastest fair settings. */
        PEER,
        /** A peer at the setting that matches BitCask's {@code kill -9} contract; never the "best peer". */
        PARITY,
        /** A peer at another setting of one knob, to show how much a headline depends on it. */
        SENSITIVITY,
        /** An in-memory structure to read the figures against: it may be beaten, and nothing is judged against it. */
        REFERENCE,
        /** No store: the cost of the benchmark harness itself. */
        HARNESS
    }

    /**
     * One store.
     *
     * @param name the {@code store} parameter value
     * @param label how tables name it
     * @param role what it is in the comparison
     * @param peer for {@link Role#PARITY} and {@link Role#SENSITIVITY} rows, the {@link Role#PEER} they
     *     vary; else the name itself
     * @param crash what survives a {@code kill -9} of the process, in a few words (the table column)
     * @param crashDetail the same with its reason (the legend)
     * @param close what its close does at the end of a put round, inside the round's clock
     */
    public record Entry(String name, String label, Role role, String peer, String crash, String crashDetail,
                        String close) {
    }

    private static final String ALL = "every acknowledged write";
    private static final String MEMORY = "nothing: memory only";
    private static final String LMDB_CRASH = "each put commits into the shared mapping (MDB_NOSYNC: not forced)";
    private static final String BITCASK_CLOSE = "forces every segment, writes the hint files, cuts the active file to"
            + " its records";
    private static final String LMDB_CLOSE = "closes the environment and cuts the file to the pages in use;"
            + " nothing forced (MDB_NOSYNC)";
    private static final String MEMORY_CLOSE = "drops the memory";
    private static final String ROCKSDB_CRASH = "the write-ahead log is written, not synced, before put returns";
    private static final String CHRONICLE_CRASH = "entries are in the shared mapping when put returns; after a kill"
            + " in the middle of a put, reopen with recoverPersistedTo() to release the segment lock it held"
            + " (a kill between puts reopened with every entry here)";

    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

    static {
        add("BITCASK_MAPPED", "BitCask MAPPED", Role.BITCASK, null, ALL,
                "the record is in the shared mapping before put returns", BITCASK_CLOSE);
        add("BITCASK_FILE_CHANNEL", "BitCask FILE_CHANNEL", Role.BITCASK, null, ALL,
                "the record is written to the page cache (pwrite) before put returns", BITCASK_CLOSE);
        add("BITCASK_MEMORY_SEGMENT", "BitCask MEMORY_SEGMENT", Role.BITCASK, null, ALL,
                "the record is in the shared mapping (an FFM memory segment, JDK 22+) before put returns",
                BITCASK_CLOSE);
        add("ROCKSDB", "RocksDB", Role.PEER, null, ALL, ROCKSDB_CRASH,
                "flushes the memtable to a table file and waits for it (RocksDB's own close would leave it in"
                        + " the write-ahead log for the next open)");
        add("LMDB", "LMDB", Role.PEER, null, ALL, LMDB_CRASH + "; read transaction renewed only after a put"
                + " committed", LMDB_CLOSE);
        add("CHRONICLE_MAP", "Chronicle Map", Role.PEER, null, ALL + " (recovery after a kill mid-put)",
                CHRONICLE_CRASH, "unmaps the file; nothing forced");
        add("MAPDB", "MapDB HTreeMap", Role.PEER, null, "none: the file may not reopen",
                "transactions off: a kill -9 after 20,000 acknowledged puts left a file MapDB refused to reopen"
                        + " (header checksum broken; checksumHeaderBypass() would open it, unchecked)",
                "writes its header and unmaps the file");
        add("H2_MVSTORE", "H2 MVStore", Role.PEER, null, "loses up to ~1 s of writes",
                "acknowledged writes wait in memory for the background commit, about once a second; a kill -9"
                        + " right after 20,000 acknowledged puts left none of them",
                "writes the changed pages still in memory as its last chunk");
        add("MAPDB_TX", "MapDB HTreeMap, commit per put", Role.PARITY, "MAPDB", ALL + " (and forced)",
                "transactions on, a commit after every put; MapDB forces its write-ahead log at every commit"
                        + " (one msync) even with fileSyncDisable(), so no MapDB setting is as cheap as kill -9"
                        + " safety alone", "closes the file; every put was committed already");
        add("H2_MVSTORE_COMMIT", "H2 MVStore, commit per put", Role.PARITY, "H2_MVSTORE", ALL,
                "commit() after every put writes the change to the file (not forced) before put returns",
                "closes the file; every put was committed already");
        add("LMDB_RENEW_100", "LMDB, read transaction renewed every 100 gets", Role.SENSITIVITY, "LMDB", ALL,
                LMDB_CRASH, LMDB_CLOSE);
        add("LMDB_TXN_REUSED", "LMDB, one read transaction kept for the trial", Role.SENSITIVITY, "LMDB", ALL,
                LMDB_CRASH, LMDB_CLOSE);
        add("CONCURRENT_HASH_MAP", "heap ConcurrentHashMap reference", Role.REFERENCE, null, MEMORY, MEMORY,
                MEMORY_CLOSE);
        add("IN_MEMORY_REFERENCE", "in-memory reference", Role.REFERENCE, null, MEMORY, MEMORY, MEMORY_CLOSE);
        add("HARNESS", "harness only, no store", Role.HARNESS, null, "-", "not a store", "-");
    }

    private StoreCatalog() {
    }

    private static void add(String name, String label, Role role, String peer, String crash, String detail,
                            String close) {
        ENTRIES.put(name, new Entry(name, label, role, peer == null ? name : peer, crash, detail, close));
    }

    /** The entry for a {@code store} parameter value. */
    public static Optional<Entry> of(String store) {
        return Optional.ofNullable(store).map(ENTRIES::get);
    }

    /** Every entry, in table order. */
    public static List<Entry> all() {
        return List.copyOf(ENTRIES.values());
    }

    /** The position of a store in tables; unknown stores go last. */
    public static int rank(String store) {
        int i = 0;
        for (String name : ENTRIES.keySet()) {
            if (name.equals(store)) {
                return i;
            }
            i++;
        }
        return Integer.MAX_VALUE;
    }

    /** The role of a store, {@link Role#SENSITIVITY} for unknown names (never a reference or the best peer). */
    public static Role role(String store) {
        return of(store).map(Entry::role).orElse(Role.SENSITIVITY);
    }

    /** The short crash guarantee of a store, or blank when unknown. */
    public static String crash(String store) {
        return of(store).map(Entry::crash).orElse("");
    }

    /** The label of a store, or the name itself when unknown. */
    public static String label(String store) {
        return of(store).map(Entry::label).orElse(String.valueOf(store));
    }
}
