package io.caskbench.report;

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
        /** A peer at another setting: its crash-parity or a sensitivity row; never the "best peer". */
        PEER_SETTING,
        /** A well-known in-memory structure to read the figures against; not a bound. */
        REFERENCE,
        /** A store's copies without a file: what no store that copies its data can beat. */
        BOUND,
        /** No store: the cost of the benchmark harness itself. */
        HARNESS
    }

    /**
     * One store.
     *
     * @param name the {@code store} parameter value
     * @param label how tables name it
     * @param role what it is in the comparison
     * @param peer for {@link Role#PEER_SETTING} rows, the {@link Role#PEER} they vary; else the name itself
     * @param crash what survives a {@code kill -9} of the process, in a few words
     */
    public record Entry(String name, String label, Role role, String peer, String crash) {
    }

    private static final String BITCASK_CRASH = "every acknowledged write: the record is in the page cache "
            + "(or the shared mapping) before put returns";
    private static final String LMDB_CRASH = "every acknowledged write: each put commits into the shared mapping";
    private static final String ROCKSDB_CRASH = "every acknowledged write: the write-ahead log is written "
            + "(not synced) before put returns";
    private static final String CHRONICLE_CRASH = "acknowledged entries are in the shared mapping; the file must "
            + "be reopened with recoverPersistedTo(), which may drop an entry a killed put was writing";
    private static final String MEMORY = "nothing: memory only";

    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

    static {
        add("BITCASK_MAPPED", "BitCask MAPPED", Role.BITCASK, null, BITCASK_CRASH);
        add("BITCASK_FILE_CHANNEL", "BitCask FILE_CHANNEL", Role.BITCASK, null, BITCASK_CRASH);
        add("ROCKSDB", "RocksDB", Role.PEER, null, ROCKSDB_CRASH);
        add("LMDB", "LMDB", Role.PEER, null, LMDB_CRASH + " (read transaction renewed per get)");
        add("CHRONICLE_MAP", "Chronicle Map", Role.PEER, null, CHRONICLE_CRASH);
        add("MAPDB", "MapDB HTreeMap", Role.PEER, null, "not guaranteed: without transactions a kill during a "
                + "write can leave the file inconsistent, and MapDB refuses to reopen it as it was");
        add("H2_MVSTORE", "H2 MVStore", Role.PEER, null, "not guaranteed: acknowledged writes wait in memory for "
                + "the background commit, about once a second");
        add("CONCURRENT_HASH_MAP", "heap ConcurrentHashMap reference", Role.REFERENCE, null, MEMORY);
        add("IN_MEMORY_BOUND", "in-memory bound (a store's copies, no file)", Role.BOUND, null, MEMORY);
        add("HARNESS", "harness only, no store", Role.HARNESS, null, "-");
    }

    private StoreCatalog() {
    }

    private static void add(String name, String label, Role role, String peer, String crash) {
        ENTRIES.put(name, new Entry(name, label, role, peer == null ? name : peer, crash));
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

    /** The role of a store, {@link Role#PEER_SETTING} for unknown names (never a reference or the best peer). */
    public static Role role(String store) {
        return of(store).map(Entry::role).orElse(Role.PEER_SETTING);
    }

    /** The label of a store, or the name itself when unknown. */
    public static String label(String store) {
        return of(store).map(Entry::label).orElse(String.valueOf(store));
    }
}
