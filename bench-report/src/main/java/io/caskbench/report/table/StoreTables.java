package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The store suite's comparison, from the run's JSON: a summary table, every store against BitCask MAPPED
 * and the best peer of all peers (each ratio with its 95% bootstrap interval), 1000 threads against one,
 * FILE_CHANNEL (and MEMORY_SEGMENT, in a run on JDK 22+) against MAPPED, the reference experiment's published figures beside ours, and the
 * performance targets ({@link TargetTables}). It heads the comparison with a warning when the harness-only
 * row costs more than a third of the cheapest store's operation in the same table.
 *
 * <p>bench-jmh writes {@link #render} into {@code store-comparison.txt} and {@code targets-comparison.txt};
 * {@code report docs} writes the same document as Markdown into the docs.
 */
public final class StoreTables {

    /** Secondary metric: heap growth per key of a filled store. */
    public static final String HEAP = "heapBytesPerKey";
    /** Secondary metric: allocated disk bytes per key of a filled store, its background work done. */
    public static final String DISK = "diskBytesPerKey";
    /** Secondary metric: the key directory's bytes per key as BitCask reports them. */
    public static final String INDEX = "indexBytesPerKey";
    /** The harness may take at most this fraction of the cheapest store's operation before a warning. */
    public static final double HARNESS_LIMIT = 1.0 / 3;

    /** The {@code backend} value of the JDK 22+ backend. */
    private static final String MEMORY_SEGMENT = "MEMORY_SEGMENT";

    /** The reference experiment's published averages: a Java BitCask on an i7-8750H laptop, OpenJDK 17. */
    private static final Map<String, Double> REFERENCE_FIGURES = Map.of(
            "singlePut", 1_360_161.0, "singleGet", 2_595_417.0, "threadsPut", 987_880.7, "threadsGet", 4_703_808.7);
    private static final Map<String, String> REFERENCE_LABELS = Map.of(
            "singlePut", "1M puts, 1 thread", "singleGet", "1M gets, 1 thread",
            "threadsPut", "1000 threads x 1000 puts", "threadsGet", "1000 threads x 1000 gets *");

    private StoreTables() {
    }

    /**
     * The comparison of one run.
     *
     * @param results the run's rows
     * @param stopped one line per 1000-thread benchmark stopped at its time limit
     */
    public static Document render(List<JmhResult> results, List<String> stopped) {
        return render(results, stopped, true);
    }

    /**
     * The comparison of one run, with or without the performance targets: a docs page that has a targets
     * block of its own leaves them out of the store block, so no ratio is printed twice on one page with two
     * figures (the two blocks come from different runs).
     */
    public static Document render(List<JmhResult> results, List<String> stopped, boolean withTargets) {
        StoreRows rows = new StoreRows(results);
        Document doc = new Document();
        harnessWarnings(rows).forEach(doc::warning);
        doc.line("Throughput in operations per second; error = half-width of JMH's 99.9% confidence interval;")
                .line("forks = separate JVM runs. Every ratio is followed by its 95% interval from a bootstrap over")
                .line("forks (iterations nested in forks). A ratio is a win or a loss only when its whole interval")
                .line("lies on one side of 1; a ratio from one fork has none, and with fewer than "
                        + Spread.PUBLISHED_FORKS + " forks a")
                .line("verdict is indicative. x MAPPED = this / BitCask MAPPED; x best peer = this / the fastest of")
                .line("RocksDB, LMDB, Chronicle Map, MapDB and H2 MVStore at their main settings, only where all of")
                .line("them ran. The in-memory reference (a store's copies into memory, no file) and the heap")
                .line("ConcurrentHashMap are read beside the stores; they may be beaten, and nothing is judged against them.");
        summary(doc, rows);
        storeTables(doc, rows, "PeersSingleThread", "Single thread, every store: ", false);
        storeTables(doc, rows, "ThousandThreads", "1000 threads x opsPerThread ops per invocation, total ops / wall time: ",
                true);
        sensitivity(doc, rows);
        crossCheck(doc, rows);
        backends(doc, rows);
        referenceExperiment(doc, rows);
        if (withTargets) {
            TargetTables.render(doc, rows);
        }
        if (!stopped.isEmpty()) {
            doc.heading("Stopped at the time limit (-Dcaskbench.gangLimitSeconds), so no figure above");
            stopped.forEach(doc::line);
        }
        return doc;
    }

    /**
     * One warning per store table whose harness-only row takes more than {@link #HARNESS_LIMIT} of the
     * time of the cheapest operation in the same table: there the harness, not the stores, sets the ratios.
     */
    static List<String> harnessWarnings(StoreRows rows) {
        List<String> warnings = new ArrayList<>();
        for (String className : List.of("PeersSingleThread", "ThousandThreads")) {
            for (Map.Entry<String, List<JmhResult>> group : rows.byStoreGroup(className).entrySet()) {
                Optional<JmhResult> harness = StoreRows.find(group.getValue(), StoreRows.HARNESS);
                Optional<JmhResult> cheapest = group.getValue().stream()
                        .filter(r -> !StoreRows.HARNESS.equals(StoreRows.store(r)))
                        .max(java.util.Comparator.comparingDouble(r -> r.primaryMetric().score()));
                if (harness.isPresent() && cheapest.isPresent() && harness.get().primaryMetric().score()
                        < cheapest.get().primaryMetric().score() / HARNESS_LIMIT) {
                    warnings.add(String.format(Locale.ROOT, "%s %s: the harness alone takes %.1f ns per operation,"
                            + " more than a third of the cheapest store's %.1f ns (%s); the ratios in that table are"
                            + " pulled toward 1.", className, group.getKey(), 1e9 / harness.get().primaryMetric().score(),
                            1e9 / cheapest.get().primaryMetric().score(), StoreRows.store(cheapest.get())));
                }
            }
        }
        return warnings;
    }

    /** One line per store at the target point: the figures a reader wants first, as in the README. */
    private static void summary(Document doc, StoreRows rows) {
        // The 1000-thread columns only where the run has 1000-thread rows at the point (the threads suite's
        // rows have a block of their own, at their own key count).
        boolean threaded = !rows.atPoint("ThousandThreads", "get").isEmpty()
                || !rows.atPoint("ThousandThreads", "put").isEmpty();
        List<String> headers = new ArrayList<>(List.of("store", "get, 1 thread", "put, 1 thread"));
        if (threaded) {
            headers.addAll(List.of("get, 1000 threads", "put, 1000 threads"));
        }
        headers.addAll(List.of("heap B/key", "disk B/key", "survives kill -9"));
        Table table = new Table(headers.toArray(new String[0]));
        for (StoreCatalog.Entry e : StoreCatalog.all()) {
            Optional<JmhResult> get = rows.atPoint("PeersSingleThread", "get", e.name());
            Optional<JmhResult> put = rows.atPoint("PeersSingleThread", "put", e.name());
            Optional<JmhResult> get1000 = rows.atPoint("ThousandThreads", "get", e.name());
            Optional<JmhResult> put1000 = rows.atPoint("ThousandThreads", "put", e.name());
            if (e.role() == StoreCatalog.Role.SENSITIVITY
                    || get.isEmpty() && put.isEmpty() && get1000.isEmpty() && put1000.isEmpty()) {
                continue;
            }
            List<String> cells = new ArrayList<>(List.of(e.label(), withRange(get), withRange(put)));
            if (threaded) {
                cells.addAll(List.of(withRange(get1000), withRange(put1000)));
            }
            cells.addAll(List.of(get.map(r -> bytes(r, HEAP)).orElse(""), get.map(r -> bytes(r, DISK)).orElse(""),
                    e.crash()));
            table.row(cells);
        }
        if (!table.isEmpty()) {
            doc.heading("Summary at 1M keys, 16-byte keys, 100-byte values, random order (ops/s)");
            doc.table(table);
            doc.line("In brackets: how far apart the fork means were, as +- half their range. \"-\": not run in this")
                    .line("profile, or stopped (see the end). Footprint: after the fill, with the store")
                    .line("closed (its background work done) for disk, and reopened with every key read once for heap.")
                    .line("Each peer runs at its main settings; where those lose acknowledged writes on a kill -9, a")
                    .line("second row runs it at the setting that keeps them, as BitCask does.");
            crashLegend(doc);
        }
    }

    /** What a kill -9 leaves of each store's acknowledged writes, with the reason. */
    private static void crashLegend(Document doc) {
        Table legend = new Table("store", "survives kill -9", "why", "its close, timed at the end of each put round");
        StoreCatalog.all().stream().filter(e -> e.role() != StoreCatalog.Role.SENSITIVITY)
                .forEach(e -> legend.row(e.label(), e.crash(), e.crashDetail(), e.close()));
        doc.heading("What a kill -9 of the process leaves of acknowledged writes, and what each close does");
        doc.table(legend);
        doc.line("None of them forces writes to the device per operation except MapDB's commit, so none survives a");
        doc.line("power loss by contract: that is what BitCask's SyncPolicy.ALWAYS is for (the group-commit rows).");
    }

    /** A score with the half-range of its fork means in percent: {@code 1,805,210 (±3%)}. */
    static String withRange(Optional<JmhResult> r) {
        return r.map(x -> {
            double range = Spread.relativeRange(x);
            return Table.score(x.primaryMetric().score())
                    + (Double.isNaN(range) ? "" : String.format(Locale.ROOT, " (±%.0f%%)", 50 * range));
        }).orElse("-");
    }

    private static String scoreOf(Optional<JmhResult> r) {
        return r.map(x -> Table.score(x.primaryMetric().score())).orElse("-");
    }

    /**
     * One table per method and parameter set: each store against MAPPED and the best peer, with what a
     * kill -9 leaves. The best peer is the fastest of all peers; a table missing one has no "x best peer".
     */
    private static void storeTables(Document doc, StoreRows rows, String className, String title, boolean threaded) {
        for (Map.Entry<String, List<JmhResult>> group : rows.byStoreGroup(className).entrySet()) {
            List<JmhResult> g = group.getValue();
            doc.heading(title + group.getKey());
            Optional<JmhResult> mapped = StoreRows.find(g, StoreRows.MAPPED);
            List<String> missingPeers = StoreRows.missingPeers(g);
            Optional<JmhResult> best = missingPeers.isEmpty() ? StoreRows.bestPeer(g) : Optional.empty();
            List<String> headers = new ArrayList<>(List.of("store", "ops/s", "error", "forks", "x MAPPED",
                    "x best peer"));
            headers.addAll(threaded ? List.of("x 1 thread") : List.of("heap B/key", "disk B/key"));
            headers.add("survives kill -9");
            Table table = new Table(headers.toArray(new String[0]));
            for (JmhResult r : g) {
                List<String> cells = new ArrayList<>(List.of(StoreCatalog.label(StoreRows.store(r)),
                        Table.score(r.primaryMetric().score()), Table.error(r.primaryMetric().scoreError()),
                        r.forksCell(), Spread.of(r, mapped.orElse(null)).cell(),
                        Spread.of(r, best.orElse(null)).cell()));
                cells.addAll(threaded ? List.of(Spread.of(r, rows.singleThreaded(r).orElse(null)).cell())
                        : List.of(bytes(r, HEAP), bytes(r, DISK)));
                cells.add(StoreCatalog.crash(StoreRows.store(r)));
                table.row(cells);
            }
            doc.table(table);
            best.ifPresent(b -> doc.line("best peer: " + StoreCatalog.label(StoreRows.store(b))
                    + StoreRows.shortOfForks(b).map(why -> " (" + why + ": its ratios are not judged)").orElse("")));
            if (!missingPeers.isEmpty()) {
                doc.line("x best peer: not comparable, no row of " + String.join(", ", missingPeers)
                        + " at this shape (a best of some peers is not the best peer)");
            }
            if (threaded) {
                doc.line("x 1 thread = this / the same store's single-threaded figure above (mixed has none)");
            }
            missing(doc, g);
        }
    }

    private static String bytes(JmhResult r, String metric) {
        double v = StoreRows.secondary(r, metric);
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static void missing(Document doc, List<JmhResult> group) {
        List<String> present = group.stream().map(StoreRows::store).toList();
        // A run on JDK 17 to 21 cannot have the JDK 22 backend: its absence there is not news.
        boolean segmentsPossible = group.stream().anyMatch(r -> feature(r.jdkVersion()) >= 22);
        String absent = StoreCatalog.all().stream()
                .filter(e -> (e.role() != StoreCatalog.Role.PARITY && e.role() != StoreCatalog.Role.SENSITIVITY)
                        && !present.contains(e.name()))
                .filter(e -> segmentsPossible || !e.name().equals("BITCASK_" + MEMORY_SEGMENT))
                .map(StoreCatalog.Entry::name).collect(Collectors.joining(", "));
        if (!absent.isEmpty()) {
            doc.line("no result (not run in this profile, stopped, or failed: see below and the JMH log): " + absent);
        }
    }

    /** The feature release of a JMH {@code jdkVersion} ("17.0.15", "25.0.3", "1.8.0_402"), or 0 when unreadable. */
    static int feature(String jdkVersion) {
        if (jdkVersion == null) {
            return 0;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(?:1\\.)?(\\d+)").matcher(jdkVersion);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * Each sensitivity row against the same peer's row with the same benchmark and parameters: how much
     * of a headline figure one setting of that peer accounts for.
     */
    private static void sensitivity(Document doc, StoreRows rows) {
        Table table = new Table("benchmark", "params", "setting", "ops/s", "error", "forks", "x the peer's row (95% interval)",
                "reading");
        for (String className : List.of("PeersSingleThread", "ThousandThreads")) {
            for (JmhResult r : rows.of(className)) {
                Optional<StoreCatalog.Entry> e = StoreCatalog.of(StoreRows.store(r));
                if (e.isEmpty() || e.get().role() != StoreCatalog.Role.SENSITIVITY) {
                    continue;
                }
                Optional<JmhResult> base = rows.of(className).stream()
                        .filter(b -> e.get().peer().equals(StoreRows.store(b)) && b.methodName().equals(r.methodName())
                                && StoreRows.paramsWithout(b, "store").equals(StoreRows.paramsWithout(r, "store")))
                        .findFirst();
                Spread s = Spread.of(r, base.orElse(null));
                table.row(className + "." + r.methodName(), StoreRows.paramsWithout(r, "store"), e.get().label(),
                        Table.score(r.primaryMetric().score()), Table.error(r.primaryMetric().scoreError()),
                        r.forksCell(), base.isPresent() ? s.cell() : "no row of " + e.get().peer(),
                        base.isPresent() ? s.verdict(true).words().replace("win", "faster").replace("loss", "slower")
                                + s.indicativeNote() : "");
            }
        }
        if (!table.isEmpty()) {
            doc.heading("Sensitivity: a peer at another setting of one knob, against its own row");
            doc.table(table);
            doc.line("LMDB's get renews its read transaction in the main rows only when a put has committed since")
                    .line("its last renewal (so each get sees every earlier put, as every other store's get does); these")
                    .line("rows renew it every 100 gets whatever was written, or never.")
                    .line("RocksDB's and Chronicle Map's 1000-thread puts are rerun with their spin settings changed")
                    .line("before their figures are called a collapse. Faster or slower only outside the interval.");
        }
    }

    private static void crossCheck(Document doc, StoreRows rows) {
        List<JmhResult> checks = rows.of("JmhThreadsCrossCheck");
        if (checks.isEmpty()) {
            doc.line("").line("(JMH @Threads(1000) cross-check not in this run; the threads suite runs it in its full profile.)");
            return;
        }
        doc.heading("CROSS-CHECK ONLY, not a result: JMH @Threads(N) get beside the 1000-thread gang get");
        Table table = new Table("store", "params", "JMH threads", "JMH ops/s", "gang ops/s", "JMH / gang");
        for (JmhResult r : checks) {
            Optional<JmhResult> gang = rows.of("ThousandThreads").stream()
                    .filter(t -> t.methodName().equals("get") && StoreRows.sameWorkload(t, r)).findFirst();
            table.row(StoreRows.store(r), StoreRows.paramsWithout(r, "store"), String.valueOf(r.threads()),
                    Table.score(r.primaryMetric().score()), scoreOf(gang),
                    Table.ratio(r.primaryMetric().score(), gang.map(g -> g.primaryMetric().score()).orElse(Double.NaN)));
        }
        doc.table(table);
        doc.line("With 1000 threads on few cores, JMH adds per-thread rates measured over different windows,")
                .line("so its figure overstates; the gang figure (total ops / wall time) is the result.");
    }

    private static void backends(Document doc, StoreRows rows) {
        List<JmhResult> grid = rows.of("BitCaskSingleThread");
        if (grid.isEmpty()) {
            return;
        }
        // MEMORY_SEGMENT rows exist only in runs on JDK 22 and newer: its columns come with them.
        boolean segments = grid.stream().anyMatch(r -> MEMORY_SEGMENT.equals(r.params().get("backend")));
        doc.heading("BitCask backends, single thread: FILE_CHANNEL" + (segments ? " and MEMORY_SEGMENT" : "")
                + " against MAPPED");
        List<String> headers = new ArrayList<>(List.of("op", "keyCount", "valueSize", "order", "MAPPED ops/s", "error",
                "FILE_CHANNEL ops/s", "error", "FC / MAPPED"));
        if (segments) {
            headers.addAll(List.of("MEMORY_SEGMENT ops/s", "error", "MS / MAPPED"));
        }
        Table table = new Table(headers.toArray(new String[0]));
        Map<String, List<JmhResult>> groups = grid.stream().collect(Collectors.groupingBy(
                r -> r.methodName() + " " + StoreRows.paramsWithout(r, "backend"), java.util.LinkedHashMap::new,
                Collectors.toList()));
        for (List<JmhResult> g : groups.values()) {
            JmhResult any = g.get(0);
            Optional<JmhResult> m = backend(g, "MAPPED");
            Optional<JmhResult> f = backend(g, "FILE_CHANNEL");
            List<String> cells = new ArrayList<>(List.of(any.methodName(), any.params().get("keyCount"),
                    any.params().get("valueSize"), any.params().get("order"), scoreOf(m), errorOf(m), scoreOf(f),
                    errorOf(f), Spread.of(f.orElse(null), m.orElse(null)).cell()));
            if (segments) {
                Optional<JmhResult> s = backend(g, MEMORY_SEGMENT);
                cells.addAll(List.of(scoreOf(s), errorOf(s), Spread.of(s.orElse(null), m.orElse(null)).cell()));
            }
            table.row(cells);
        }
        doc.table(table);
    }

    private static Optional<JmhResult> backend(List<JmhResult> group, String backend) {
        return group.stream().filter(r -> backend.equals(r.params().get("backend"))).findFirst();
    }

    private static String errorOf(Optional<JmhResult> r) {
        return r.map(x -> Table.error(x.primaryMetric().scoreError())).orElse("");
    }

    private static void referenceExperiment(Document doc, StoreRows rows) {
        List<JmhResult> seed = rows.of("SeedWorkload");
        if (seed.isEmpty()) {
            return;
        }
        doc.heading("The reference experiment's workload (keys object<i>.png, Protostuff object metadata values)");
        List<String> stores = seed.stream().map(StoreRows::store).distinct()
                .sorted(java.util.Comparator.comparingInt(StoreCatalog::rank)).toList();
        List<String> headers = new ArrayList<>(List.of("workload", "reference kv/s"));
        for (String store : stores) {
            headers.addAll(List.of(store + " ops/s", "error", "x reference"));
        }
        Table table = new Table(headers.toArray(new String[0]));
        for (String method : List.of("singlePut", "singleGet", "threadsPut", "threadsGet")) {
            List<String> cells = new ArrayList<>(List.of(REFERENCE_LABELS.get(method),
                    Table.score(REFERENCE_FIGURES.get(method))));
            for (String store : stores) {
                Optional<JmhResult> r = seed.stream()
                        .filter(x -> x.methodName().equals(method) && store.equals(StoreRows.store(x))).findFirst();
                cells.add(scoreOf(r));
                cells.add(r.map(x -> Table.error(x.primaryMetric().scoreError())).orElse(""));
                // The reference's "concurrent read" loop called put: a get over it would divide a get by a put.
                cells.add(method.equals("threadsGet") ? "—"
                        : Table.ratio(r.map(x -> x.primaryMetric().score()).orElse(Double.NaN),
                                REFERENCE_FIGURES.get(method)));
            }
            table.row(cells);
        }
        doc.table(table);
        doc.line("The reference ran on an Intel i7-8750H (6 cores, 2.2 GHz), 16 GB, OpenJDK 17: its machine, not this one.")
                .line("It read its keys back in the order it wrote them, and so does this workload (unlike the tables above).")
                .line("* its \"concurrent read\" loop called put, so its 4.7M/s is a put figure; ours reads, so no")
                .line("ratio is given (\u2014).");
    }
}
