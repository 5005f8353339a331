package io.caskbench.bench.store;

import static io.caskbench.bench.SummaryTable.error;
import static io.caskbench.bench.SummaryTable.ratio;
import static io.caskbench.bench.SummaryTable.score;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.SummaryTable;
import io.caskbench.bench.store.adapter.StoreKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The store suite's plain-text summary: every store against BitCask MAPPED and against the best peer,
 * 1000 threads against one, FILE_CHANNEL against MAPPED, seed 002's published figures against ours, and
 * the performance targets of issue 9 at the point they are stated at.
 */
final class StoreSummary {

    static final String MAPPED = "BITCASK_MAPPED";
    static final String FILE_CHANNEL = "BITCASK_FILE_CHANNEL";
    private static final String BOUND = StoreKind.IN_MEMORY_BOUND.name();
    private static final String REFERENCE = StoreKind.CONCURRENT_HASH_MAP.name();
    private static final String HARNESS = StoreKind.HARNESS.name();
    /** The harness may cost at most this fraction of the cheapest store's operation before a warning. */
    static final double HARNESS_LIMIT = 1.0 / 3;

    /** The point issue 9 states its targets at. */
    private static final Map<String, String> TARGET_POINT = Map.of("keyCount", "1000000", "valueSize", "100",
            "order", "RANDOM");

    private StoreSummary() {
    }

    /**
     * The summary of one store-suite run.
     *
     * @param rows the results
     * @param stopped one line per 1000-thread benchmark stopped at the time limit (see {@link Gang})
     */
    static String render(List<ResultRow> rows, List<String> stopped) {
        StringBuilder out = new StringBuilder();
        harnessWarnings(rows).forEach(w -> out.append(w).append('\n'));
        out.append("Throughput in operations per second; error = half-width of JMH's 99.9% confidence interval.\n")
                .append("x MAPPED = this / BitCask MAPPED; x best peer = this / fastest of RocksDB, LMDB, Chronicle Map,\n")
                .append("MapDB, H2 MVStore; x bound = this / IN_MEMORY_BOUND, a store's copies into memory without a\n")
                .append("file, which no store can beat. CONCURRENT_HASH_MAP is a heap reference, not a bound.\n")
                .append("On a machine shared with other work the figures are noisy: compare within one run.\n");
        peers(out, rows);
        threads(out, rows);
        crossCheck(out, rows);
        backends(out, rows);
        seed(out, rows);
        targets(out, rows);
        if (!stopped.isEmpty()) {
            section(out, "Stopped at the time limit (-Dcaskbench.gangLimitSeconds), so no figure above");
            stopped.forEach(line -> out.append(line).append('\n'));
        }
        return out.toString();
    }

    private static void peers(StringBuilder out, List<ResultRow> rows) {
        storeTables(out, rows, "PeersSingleThread", "Single thread, every store: ",
                List.of("heap B/key", "disk B/key"),
                r -> List.of(footprint(r, Footprint.HEAP), footprint(r, Footprint.DISK)), "");
    }

    private static void threads(StringBuilder out, List<ResultRow> rows) {
        storeTables(out, rows, "ThousandThreads", "1000 threads x 1000 ops per invocation, total ops / wall time: ",
                List.of("x 1 thread"),
                r -> List.of(ratio(r.score(), singleThreaded(rows, r).map(ResultRow::score).orElse(Double.NaN))),
                "x 1 thread = this / the same store's single-threaded figure above (mixed has none)\n");
    }

    /** One table per method and parameter set: each store against MAPPED and the best peer. */
    private static void storeTables(StringBuilder out, List<ResultRow> rows, String className, String title,
            List<String> extraHeaders, Function<ResultRow, List<String>> extraCells, String note) {
        for (Map.Entry<String, List<ResultRow>> group : byStoreGroup(rows, className).entrySet()) {
            List<ResultRow> g = group.getValue();
            section(out, title + group.getKey());
            double mapped = scoreOf(g, MAPPED);
            double bound = scoreOf(g, BOUND);
            Optional<ResultRow> best = bestPeer(g);
            double bestScore = best.map(ResultRow::score).orElse(Double.NaN);
            List<String> headers = new ArrayList<>(List.of("store", "ops/s", "error", "x MAPPED", "x best peer",
                    "x bound"));
            headers.addAll(extraHeaders);
            SummaryTable table = new SummaryTable(headers.toArray(new String[0]));
            for (ResultRow r : g) {
                List<String> cells = new ArrayList<>(List.of(label(r), score(r.score()), error(r.error()),
                        ratio(r.score(), mapped), ratio(r.score(), bestScore), ratio(r.score(), bound)));
                cells.addAll(extraCells.apply(r));
                table.row(cells.toArray(new String[0]));
            }
            out.append(table.render());
            best.ifPresent(b -> out.append("best peer: ").append(b.param("store")).append('\n'));
            out.append(note);
            missing(out, g);
        }
    }

    /**
     * One warning per store table whose harness-only row takes more than {@link #HARNESS_LIMIT} of the
     * time of the cheapest operation in the same table: there the harness, not the stores, sets the ratios.
     */
    static List<String> harnessWarnings(List<ResultRow> rows) {
        List<String> warnings = new ArrayList<>();
        for (String className : List.of("PeersSingleThread", "ThousandThreads")) {
            for (Map.Entry<String, List<ResultRow>> group : byStoreGroup(rows, className).entrySet()) {
                Optional<ResultRow> harness = group.getValue().stream().filter(r -> HARNESS.equals(r.param("store")))
                        .findFirst();
                Optional<ResultRow> cheapest = group.getValue().stream().filter(r -> !HARNESS.equals(r.param("store")))
                        .max(Comparator.comparingDouble(ResultRow::score));
                if (harness.isPresent() && cheapest.isPresent()
                        && harness.get().score() < cheapest.get().score() / HARNESS_LIMIT) {
                    warnings.add(String.format(Locale.ROOT, "!! WARNING: %s %s: the harness alone takes %.1f ns per"
                            + " operation, more than a third of the cheapest store's %.1f ns (%s); the ratios in that"
                            + " table are pulled toward 1.", className, group.getKey(), 1e9 / harness.get().score(),
                            1e9 / cheapest.get().score(), cheapest.get().param("store")));
                }
            }
        }
        return warnings;
    }

    private static void crossCheck(StringBuilder out, List<ResultRow> rows) {
        List<ResultRow> checks = of(rows, "JmhThreadsCrossCheck");
        if (checks.isEmpty()) {
            out.append("\n(JMH @Threads(1000) cross-check not in this run; the full profile runs it.)\n");
            return;
        }
        section(out, "CROSS-CHECK ONLY, not a result: JMH @Threads(N) get beside the 1000-thread gang get");
        SummaryTable table = new SummaryTable("store", "params", "JMH threads", "JMH ops/s", "gang ops/s",
                "JMH / gang");
        for (ResultRow r : checks) {
            double gang = of(rows, "ThousandThreads").stream()
                    .filter(t -> t.method().equals("get") && sameWorkload(t, r))
                    .map(ResultRow::score).findFirst().orElse(Double.NaN);
            table.row(r.param("store"), r.paramsWithout("store"), String.valueOf(r.threads()), score(r.score()),
                    score(gang), ratio(r.score(), gang));
        }
        out.append(table.render());
        out.append("With 1000 threads on few cores, JMH adds per-thread rates measured over different windows,\n")
                .append("so its figure overstates; the gang figure (total ops / wall time) is the result.\n");
    }

    private static void backends(StringBuilder out, List<ResultRow> rows) {
        List<ResultRow> grid = of(rows, "BitCaskSingleThread");
        if (grid.isEmpty()) {
            return;
        }
        section(out, "BitCask backends, single thread: FILE_CHANNEL against MAPPED");
        SummaryTable table = new SummaryTable("op", "keyCount", "valueSize", "order", "MAPPED ops/s", "error",
                "FILE_CHANNEL ops/s", "error", "FC / MAPPED");
        Map<String, List<ResultRow>> groups = grid.stream().collect(Collectors.groupingBy(
                r -> r.method() + " " + r.paramsWithout("backend"), LinkedHashMap::new, Collectors.toList()));
        for (List<ResultRow> g : groups.values()) {
            ResultRow any = g.get(0);
            Optional<ResultRow> m = g.stream().filter(r -> "MAPPED".equals(r.param("backend"))).findFirst();
            Optional<ResultRow> f = g.stream().filter(r -> "FILE_CHANNEL".equals(r.param("backend"))).findFirst();
            table.row(any.method(), any.param("keyCount"), any.param("valueSize"), any.param("order"),
                    m.map(r -> score(r.score())).orElse("-"), m.map(r -> error(r.error())).orElse(""),
                    f.map(r -> score(r.score())).orElse("-"), f.map(r -> error(r.error())).orElse(""),
                    ratio(f.map(ResultRow::score).orElse(Double.NaN), m.map(ResultRow::score).orElse(Double.NaN)));
        }
        out.append(table.render());
    }

    /** Seed 002's published averages (3 runs each, i7-8750H 2.2 GHz, 16 GB, OpenJDK 17). */
    private static final Map<String, Double> SEED_FIGURES = Map.of(
            "singlePut", 1_360_161.0,
            "singleGet", 2_595_417.0,
            "threadsPut", 987_880.7,
            "threadsGet", 4_703_808.7);

    private static final Map<String, String> SEED_LABELS = Map.of(
            "singlePut", "1M puts, 1 thread",
            "singleGet", "1M gets, 1 thread",
            "threadsPut", "1000 threads x 1000 puts",
            "threadsGet", "1000 threads x 1000 gets *");

    private static void seed(StringBuilder out, List<ResultRow> rows) {
        List<ResultRow> seed = of(rows, "SeedWorkload");
        if (seed.isEmpty()) {
            return;
        }
        section(out, "Seed 002 workload (keys object<i>.png, Protostuff object metadata values)");
        List<String> stores = seed.stream().map(r -> r.param("store")).distinct().sorted(STORE_ORDER)
                .collect(Collectors.toList());
        List<String> headers = new ArrayList<>(List.of("workload", "seed 002 kv/s"));
        for (String store : stores) {
            headers.add(store + " ops/s");
            headers.add("error");
            headers.add("x seed");
        }
        SummaryTable table = new SummaryTable(headers.toArray(new String[0]));
        for (String method : List.of("singlePut", "singleGet", "threadsPut", "threadsGet")) {
            List<String> cells = new ArrayList<>(List.of(SEED_LABELS.get(method), score(SEED_FIGURES.get(method))));
            for (String store : stores) {
                Optional<ResultRow> r = seed.stream()
                        .filter(x -> x.method().equals(method) && store.equals(x.param("store"))).findFirst();
                cells.add(r.map(x -> score(x.score())).orElse("-"));
                cells.add(r.map(x -> error(x.error())).orElse(""));
                cells.add(ratio(r.map(ResultRow::score).orElse(Double.NaN), SEED_FIGURES.get(method)));
            }
            table.row(cells.toArray(new String[0]));
        }
        out.append(table.render());
        out.append("seed 002 ran on an Intel i7-8750H (6 cores, 2.2 GHz), 16 GB, OpenJDK 17: its machine, not this one.\n")
                .append("* the seed's \"concurrent read\" loop called put, so its 4.7M/s is a put figure; ours reads.\n");
    }

    private static void targets(StringBuilder out, List<ResultRow> rows) {
        section(out, "Issue 9 targets at 1M keys, 16-byte keys, 100-byte values, random order");
        SummaryTable table = new SummaryTable("target", "measured", "goal", "met");
        target(table, "P1 get MAPPED / LMDB", pick(rows, "PeersSingleThread", "get", MAPPED),
                pick(rows, "PeersSingleThread", "get", "LMDB"), 2.0);
        target(table, "P1 get MAPPED / in-memory bound", pick(rows, "PeersSingleThread", "get", MAPPED),
                pick(rows, "PeersSingleThread", "get", BOUND), 0.5);
        target(table, "P2 put MAPPED / best peer", pick(rows, "PeersSingleThread", "put", MAPPED),
                bestPeer(atPoint(of(rows, "PeersSingleThread"), "put")).map(ResultRow::score).orElse(Double.NaN),
                3.0);
        target(table, "P2 put MAPPED / in-memory bound", pick(rows, "PeersSingleThread", "put", MAPPED),
                pick(rows, "PeersSingleThread", "put", BOUND), 0.5);
        target(table, "P3 1000-thread put / 1-thread put, MAPPED", pick(rows, "ThousandThreads", "put", MAPPED),
                pick(rows, "PeersSingleThread", "put", MAPPED), 1.0);
        target(table, "P3 1000-thread get / 1-thread get, MAPPED", pick(rows, "ThousandThreads", "get", MAPPED),
                pick(rows, "PeersSingleThread", "get", MAPPED), 1.4);
        target(table, "P4 1000-thread put / 1-thread put, FILE_CHANNEL",
                pick(rows, "ThousandThreads", "put", FILE_CHANNEL),
                pick(rows, "PeersSingleThread", "put", FILE_CHANNEL), 5.0);
        // Within 1.2x of the floor's time per record means put throughput >= floor throughput / 1.2.
        for (String floor : new String[] {"direct", "heap"}) {
            target(table, "P4 1-thread put FILE_CHANNEL / one pwrite per record (" + floor + ")",
                    pick(rows, "PeersSingleThread", "put", FILE_CHANNEL), scoreWhere(rows, "WriteFloor", floor, Map.of()),
                    1.0 / 1.2, ">= 0.83 (1/1.2)");
        }
        Map<String, String> always = Map.of("backend", "FILE_CHANNEL", "sync", "ALWAYS");
        target(table, "P5 ALWAYS 1000-thread put / 1-thread put, FILE_CHANNEL",
                scoreWhere(rows, "GroupCommit", "gang", always), scoreWhere(rows, "GroupCommit", "single", always), 20.0);
        Map<String, String> alwaysMapped = Map.of("backend", "MAPPED", "sync", "ALWAYS");
        target(table, "P5 ALWAYS 1000-thread put / 1-thread put, MAPPED",
                scoreWhere(rows, "GroupCommit", "gang", alwaysMapped), scoreWhere(rows, "GroupCommit", "single", alwaysMapped),
                20.0);
        double index = atPoint(of(rows, "PeersSingleThread"), "get").stream()
                .filter(r -> MAPPED.equals(r.param("store")))
                .map(r -> r.secondary().getOrDefault(Footprint.INDEX, Double.NaN)).findFirst().orElse(Double.NaN);
        table.row("P6 key directory bytes/key, MAPPED", Double.isNaN(index) ? "not measured" : score(index),
                "<= 48 (16 + 32)", Double.isNaN(index) ? "" : index <= 48 ? "yes" : "NO");
        double hints = scoreWhere(rows, "OpenBench", "open", Map.of("mode", "hints", "keyCount", "1000000"));
        double scan = scoreWhere(rows, "OpenBench", "open", Map.of("mode", "scan", "keyCount", "1000000"));
        table.row("P7 open 1M keys with hints, ms", Double.isNaN(hints) ? "not measured" : score(hints), "<= 1000",
                Double.isNaN(hints) ? "" : hints <= 1000 ? "yes" : "NO");
        target(table, "P7 full scan time / open with hints", scan, hints, 3.0);
        out.append(table.render());
        out.append("Rows without a figure are measured by the targets suite (-Dcaskbench.suites=targets).\n");
    }

    /** The score of {@code className.method} whose parameters include {@code params}; NaN when not run. */
    private static double scoreWhere(List<ResultRow> rows, String className, String method, Map<String, String> params) {
        return of(rows, className).stream().filter(r -> r.method().equals(method))
                .filter(r -> params.entrySet().stream().allMatch(e -> e.getValue().equals(r.param(e.getKey()))))
                .map(ResultRow::score).findFirst().orElse(Double.NaN);
    }

    private static void target(SummaryTable table, String name, double numerator, double denominator, double goal) {
        target(table, name, numerator, denominator, goal, String.format(Locale.ROOT, ">= %.1f", goal));
    }

    private static void target(SummaryTable table, String name, double numerator, double denominator, double goal,
            String goalText) {
        String measured = ratio(numerator, denominator);
        table.row(name, measured.isEmpty() ? "not measured" : measured, goalText,
                measured.isEmpty() ? "" : numerator / denominator >= goal ? "yes" : "NO");
    }

    private static double pick(List<ResultRow> rows, String className, String method, String store) {
        return atPoint(of(rows, className), method).stream().filter(r -> store.equals(r.param("store")))
                .map(ResultRow::score).findFirst().orElse(Double.NaN);
    }

    private static List<ResultRow> atPoint(List<ResultRow> rows, String method) {
        return rows.stream().filter(r -> r.method().equals(method))
                .filter(r -> TARGET_POINT.entrySet().stream().allMatch(e -> e.getValue().equals(r.param(e.getKey()))))
                .collect(Collectors.toList());
    }

    private static Optional<ResultRow> singleThreaded(List<ResultRow> rows, ResultRow threaded) {
        return of(rows, "PeersSingleThread").stream()
                .filter(r -> r.method().equals(threaded.method()) && sameWorkload(r, threaded))
                .findFirst();
    }

    /** Same store and workload, whatever the thread shape ({@code opsPerThread} only sizes the gang). */
    private static boolean sameWorkload(ResultRow a, ResultRow b) {
        return a.paramsWithout("opsPerThread").equals(b.paramsWithout("opsPerThread"));
    }

    private static List<ResultRow> of(List<ResultRow> rows, String className) {
        return rows.stream().filter(r -> r.className().equals(className)).collect(Collectors.toList());
    }

    /** Rows of one class grouped by method and every parameter but the store, stores in a fixed order. */
    private static Map<String, List<ResultRow>> byStoreGroup(List<ResultRow> rows, String className) {
        Map<String, List<ResultRow>> groups = of(rows, className).stream().collect(Collectors.groupingBy(
                r -> r.method() + "  (" + r.paramsWithout("store", "opsPerThread") + ")", LinkedHashMap::new,
                Collectors.toList()));
        groups.replaceAll((k, g) -> g.stream()
                .sorted(Comparator.comparing((ResultRow r) -> r.param("store"), STORE_ORDER))
                .collect(Collectors.toList()));
        return groups;
    }

    private static final Comparator<String> STORE_ORDER = Comparator.comparingInt(StoreSummary::rank);

    private static int rank(String store) {
        return kind(store).map(StoreKind::ordinal).orElse(Integer.MAX_VALUE);
    }

    private static Optional<StoreKind> kind(String store) {
        return Arrays.stream(StoreKind.values()).filter(k -> k.name().equals(store)).findFirst();
    }

    private static Optional<ResultRow> bestPeer(List<ResultRow> group) {
        return group.stream()
                .filter(r -> kind(r.param("store")).map(k -> k.role() == StoreKind.Role.PEER).orElse(false))
                .max(Comparator.comparingDouble(ResultRow::score));
    }

    private static double scoreOf(List<ResultRow> group, String store) {
        return group.stream().filter(r -> store.equals(r.param("store"))).map(ResultRow::score).findFirst()
                .orElse(Double.NaN);
    }

    private static String label(ResultRow r) {
        String store = r.param("store");
        return BOUND.equals(store) ? store + " (the bound: a store's copies, no file)"
                : REFERENCE.equals(store) ? store + " (heap ConcurrentHashMap reference)"
                : HARNESS.equals(store) ? store + " (harness only, no store)" : store;
    }

    private static String footprint(ResultRow r, String metric) {
        Double value = r.secondary().get(metric);
        return value == null ? "" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static void missing(StringBuilder out, List<ResultRow> group) {
        List<String> present = group.stream().map(r -> r.param("store")).filter(Objects::nonNull)
                .collect(Collectors.toList());
        String absent = Arrays.stream(StoreKind.values()).map(StoreKind::name)
                .filter(s -> !present.contains(s)).collect(Collectors.joining(", "));
        if (!absent.isEmpty()) {
            out.append("no result (not run in this profile, stopped, or failed: see below and the JMH log): ")
                    .append(absent).append('\n');
        }
    }

    private static void section(StringBuilder out, String title) {
        out.append('\n').append("== ").append(title).append('\n');
    }
}
