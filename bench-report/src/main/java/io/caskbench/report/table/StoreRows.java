package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The rows of a store-suite run ({@code store.json}, {@code targets.json}) and the lookups every store
 * table needs: by benchmark class, by method and store, at the point the targets are stated at.
 */
public final class StoreRows {

    /** The reference store. */
    static final String MAPPED = "BITCASK_MAPPED";
    /** BitCask's other backend. */
    static final String FILE_CHANNEL = "BITCASK_FILE_CHANNEL";
    /** The in-memory reference: a store's copies without a file, read beside the figures, never judged against. */
    static final String REFERENCE = "IN_MEMORY_REFERENCE";
    /** The harness-only row. */
    static final String HARNESS = "HARNESS";
    /** The point the performance targets are stated at. */
    static final Map<String, String> POINT = Map.of("keyCount", "1000000", "valueSize", "100", "order", "RANDOM");
    /** The parameter that sizes a 1000-thread gang: operations per thread per invocation. */
    static final String GANG_OPS = "opsPerThread";
    /** Secondary metric: how many keys the store held while it was measured. */
    static final String KEYS_IN_STORE = "keysInStore";
    /** A row is drawn and judged only when its store held at least this share of its {@code keyCount}. */
    static final double LABEL_SHARE = 0.9;
    /** Sorts rows by the catalog's store order. */
    static final Comparator<JmhResult> BY_STORE = Comparator.comparingInt(r -> StoreCatalog.rank(store(r)));

    private final List<JmhResult> rows;

    /** The store-suite rows {@code rows}, kept as given for lookups by class, method and store. */
    public StoreRows(List<JmhResult> rows) {
        this.rows = List.copyOf(rows);
    }

    /** The simple name of a row's benchmark class. */
    static String cls(JmhResult r) {
        String c = r.className();
        return c.substring(c.lastIndexOf('.') + 1);
    }

    /** A row's {@code store} parameter, or null. */
    static String store(JmhResult r) {
        return r.params().get("store");
    }

    /** The parameters but {@code except}, sorted by name, as {@code k=v k=v}. */
    static String paramsWithout(JmhResult r, String... except) {
        Map<String, String> rest = new TreeMap<>(r.params());
        for (String key : except) {
            rest.remove(key);
        }
        return rest.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    /** Rows of one benchmark class. */
    List<JmhResult> of(String className) {
        return rows.stream().filter(r -> cls(r).equals(className)).toList();
    }

    /**
     * Rows of one class grouped by method and every parameter but the store, stores in catalog order;
     * sensitivity rows are left out (they have their own section).
     */
    Map<String, List<JmhResult>> byStoreGroup(String className) {
        Map<String, List<JmhResult>> groups = of(className).stream()
                .filter(r -> StoreCatalog.role(store(r)) != StoreCatalog.Role.SENSITIVITY)
                .collect(Collectors.groupingBy(r -> r.methodName() + "  (" + paramsWithout(r, "store") + ")",
                        LinkedHashMap::new, Collectors.toList()));
        groups.replaceAll((k, g) -> g.stream().sorted(BY_STORE).toList());
        return groups;
    }

    /** The row of {@code className.method} for {@code store} at the target point. */
    Optional<JmhResult> atPoint(String className, String method, String store) {
        return atPoint(className, method).stream().filter(r -> store.equals(store(r))).findFirst();
    }

    /**
     * Whether a row's store held fewer than {@link #LABEL_SHARE} of its {@code keyCount} while it was
     * measured ({@link #KEYS_IN_STORE}, when the row records it): such a row times a smaller store than its
     * label says, and is neither drawn nor judged. A row that inserts into an empty store
     * ({@code prefilled=false}) records the keys held midway through its round, so its store ends the round
     * holding twice that: it reaches its label when every round puts every key.
     */
    static boolean belowLabel(JmhResult r) {
        double held = secondary(r, KEYS_IN_STORE);
        String label = r.params().get("keyCount");
        if (Double.isNaN(held) || label == null || !label.matches("[0-9]+")) {
            return false;
        }
        double reached = "false".equals(r.params().get("prefilled")) ? 2 * held : held;
        return reached < LABEL_SHARE * Long.parseLong(label);
    }

    /**
     * Rows of {@code className.method} at the target point; where it has a gang, at the one gang shape
     * ({@link #gangShape}) the run used. A row below its label ({@link #belowLabel}) is not at the point, so
     * nothing judges it.
     */
    List<JmhResult> atPoint(String className, String method) {
        List<JmhResult> point = of(className).stream().filter(r -> r.methodName().equals(method))
                .filter(r -> !belowLabel(r))
                .filter(r -> POINT.entrySet().stream().allMatch(e -> e.getValue().equals(r.params().get(e.getKey()))))
                .toList();
        String shape = gangShape(point);
        return point.stream().filter(r -> shape == null || shape.equals(r.params().get(GANG_OPS))).toList();
    }

    /**
     * The operations per gang thread of a group, read from its rows: the value most of them ran at, the larger
     * on a tie (the closer to the reference experiment's 1000), so a table never mixes two shapes; null when
     * no row has a gang.
     */
    static String gangShape(List<JmhResult> group) {
        Map<String, Long> counts = group.stream().map(r -> r.params().get(GANG_OPS)).filter(v -> v != null)
                .collect(Collectors.groupingBy(v -> v, Collectors.counting()));
        return counts.entrySet().stream()
                .max(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue)
                        .thenComparingLong(e -> Long.parseLong(e.getKey())))
                .map(Map.Entry::getKey).orElse(null);
    }

    /** The row of {@code className.method} whose parameters include {@code params}. */
    Optional<JmhResult> where(String className, String method, Map<String, String> params) {
        return of(className).stream().filter(r -> r.methodName().equals(method))
                .filter(r -> params.entrySet().stream().allMatch(e -> e.getValue().equals(r.params().get(e.getKey()))))
                .findFirst();
    }

    /** The single-threaded row with the same store and workload as a 1000-thread row. */
    Optional<JmhResult> singleThreaded(JmhResult threaded) {
        return of("PeersSingleThread").stream()
                .filter(r -> r.methodName().equals(threaded.methodName()) && sameWorkload(r, threaded)).findFirst();
    }

    /** Same store and workload, whatever the thread shape ({@code opsPerThread} only sizes the gang). */
    static boolean sameWorkload(JmhResult a, JmhResult b) {
        return paramsWithout(a, "opsPerThread").equals(paramsWithout(b, "opsPerThread"));
    }

    /**
     * The fastest peer of a group (never a peer at another setting, a reference or the harness). Callers
     * that publish a verdict check first that every peer has a row ({@link #missingPeers}): a best of a
     * subset is not the best peer.
     */
    static Optional<JmhResult> bestPeer(List<JmhResult> group) {
        return group.stream().filter(r -> StoreCatalog.role(store(r)) == StoreCatalog.Role.PEER)
                .max(Comparator.comparingDouble(r -> r.primaryMetric().score()));
    }

    /**
     * Why a ratio of these rows is not judged, when one of them has fewer forks of data than were
     * configured (a fork failed): {@code "Chronicle Map has 2 of 3 forks of data"}; empty otherwise.
     */
    static Optional<String> shortOfForks(JmhResult... rows) {
        return java.util.Arrays.stream(rows).filter(JmhResult::shortOfForks).findFirst()
                .map(r -> StoreCatalog.label(store(r)) + " has " + r.measuredForks() + " of " + r.forks()
                        + " forks of data");
    }

    /** The labels of the peers ({@link StoreCatalog.Role#PEER}) without a row in a group, in catalog order. */
    static List<String> missingPeers(List<JmhResult> group) {
        return StoreCatalog.all().stream().filter(e -> e.role() == StoreCatalog.Role.PEER)
                .filter(e -> find(group, e.name()).isEmpty()).map(StoreCatalog.Entry::label).toList();
    }

    /** The row of {@code store} in a group. */
    static Optional<JmhResult> find(List<JmhResult> group, String store) {
        return group.stream().filter(r -> store.equals(store(r))).findFirst();
    }

    /** A secondary metric's score, or NaN. */
    static double secondary(JmhResult r, String metric) {
        Metric m = r.secondaryMetrics().get(metric);
        return m == null ? Double.NaN : m.score();
    }
}
