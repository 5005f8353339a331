package io.caskbench.report.table;

import io.caskbench.report.chart.Charts;
import io.caskbench.report.chart.ScaleChart;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.Goal;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The scale suite's comparison: how each store's single-thread get and put throughput changes from 100k to
 * 10M keys, BitCask's open time with hint files and by a full scan, and the goals stated at 10M keys. Every
 * figure is the mean of the forks' means; every ratio comes with its 95% bootstrap interval ({@link Spread}), and a
 * goal is met only when the whole 95% interval clears it.
 *
 * <p>bench-jmh writes {@link #render(List)} into {@code scale-comparison.txt}; {@code report docs} writes the
 * same tables into the docs' scale block, each throughput table under a chart of every store's line
 * ({@link ScaleChart}).
 */
public final class ScaleTables {

    /** The key count the goals are stated at. */
    static final long GOAL_KEYS = 10_000_000L;
    /** The key count the goals compare it with. */
    static final long BASE_KEYS = 1_000_000L;
    /** At {@link #GOAL_KEYS}, get and put keep at least this fraction of their throughput at {@link #BASE_KEYS}. */
    static final double KEEP = 0.7;
    /** Open with hint files at {@link #GOAL_KEYS} takes at most this many milliseconds. */
    static final double OPEN_MS = 1000;
    /** A full scan takes at least this many times as long as an open with hint files. */
    static final double SCAN_OVER_HINTS = 3.0;
    /** The get chart's file name, in the images folder {@code report docs} is given. */
    static final String GET_CHART = "scale-get.svg";
    /** The put chart's file name. */
    static final String PUT_CHART = "scale-put.svg";

    private static final String SINGLE = "PeersSingleThread";
    /** Secondary metric: how many keys the store held while it was measured. */
    static final String KEYS_IN_STORE = StoreRows.KEYS_IN_STORE;
    /** A row is drawn and judged only when its store held at least this share of its label's keys. */
    static final double LABEL_SHARE = StoreRows.LABEL_SHARE;
    private static final String OPEN = "OpenBench";
    /** The stores a chart draws: every store and the two in-memory references; the harness is no store. */
    private static final Set<StoreCatalog.Role> CHARTED = EnumSet.of(StoreCatalog.Role.BITCASK,
            StoreCatalog.Role.PEER, StoreCatalog.Role.REFERENCE);
    /** The JDK 22 backend runs only where it is named, never by default: its absence is not news. */
    private static final String MEMORY_SEGMENT = "BITCASK_MEMORY_SEGMENT";

    private ScaleTables() {
    }

    /** Where the docs want the charts: the folder, how the Markdown file reaches it, and the machine line. */
    private record Charted(Path images, String link, String machine) {

        /** One chart file in that folder. */
        ChartFile withChart(String name) {
            return new ChartFile(this, name);
        }
    }

    /** The comparison of a scale run, as bench-jmh writes it beside the results: tables only. */
    public static Document render(List<JmhResult> results) {
        return render(results, null);
    }

    /**
     * The comparison with a chart above each throughput table, written into {@code images}.
     *
     * @param machine who measured it and when, printed on the charts
     * @param images the folder the charts are written into (created when missing)
     * @param link how the Markdown file reaches that folder, e.g. {@code img}
     */
    public static Document render(List<JmhResult> results, String machine, Path images, String link) {
        return render(results, new Charted(images, link, machine));
    }

    private static Document render(List<JmhResult> results, Charted charted) {
        Document doc = new Document();
        doc.line("One thread, 16-byte keys, 100-byte values, random order. A get row at N keys reads a store filled")
                .line("with N keys; a put row puts new keys into a store that should hold about N keys while it is")
                .line("measured. Where a row records the keys its store held (keysInStore), a row below "
                        + Math.round(LABEL_SHARE * 100) + "% of N")
                .line("times a smaller store than its label says: it is neither drawn nor judged. ops/s is the mean")
                .line("of the forks' means; a ratio is followed by its 95% interval from a bootstrap over forks")
                .line("(iterations nested in forks); with fewer than " + Spread.PUBLISHED_FORKS
                        + " forks a reading is indicative.");
        TreeSet<Long> counts = keyCounts(results);
        throughput(doc, results, counts, "get", charted == null ? null : charted.withChart(GET_CHART));
        throughput(doc, results, counts, "put", charted == null ? null : charted.withChart(PUT_CHART));
        open(doc, results);
        goals(doc, results);
        return doc;
    }

    /** The key counts the single-thread rows ran at, smallest first. */
    private static TreeSet<Long> keyCounts(List<JmhResult> results) {
        return results.stream().filter(r -> StoreRows.cls(r).equals(SINGLE)).map(ScaleTables::keys)
                .filter(k -> k > 0).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Each store's rows of one single-thread method by key count, stores in catalog order; a row below its
     * label ({@link StoreRows#belowLabel}) is left out, so it is neither drawn nor judged.
     */
    private static Map<String, Map<Long, JmhResult>> byStore(List<JmhResult> results, String method) {
        Map<String, Map<Long, JmhResult>> out = new TreeMap<>(Comparator.comparingInt(StoreCatalog::rank)
                .thenComparing(Comparator.naturalOrder()));
        results.stream().filter(r -> StoreRows.cls(r).equals(SINGLE) && r.methodName().equals(method))
                .filter(r -> StoreRows.store(r) != null && keys(r) > 0 && !StoreRows.belowLabel(r))
                .forEach(r -> out.computeIfAbsent(StoreRows.store(r), s -> new TreeMap<>()).putIfAbsent(keys(r), r));
        return out;
    }

    private static void throughput(Document doc, List<JmhResult> results, TreeSet<Long> counts, String method,
            ChartFile chart) {
        doc.heading(Character.toUpperCase(method.charAt(0)) + method.substring(1) + ", one thread: ops/s by key count");
        Map<String, Map<Long, JmhResult>> stores = byStore(results, method);
        if (stores.isEmpty()) {
            doc.line("No " + method + " rows: they are measured by the scale suite (-Dcaskbench.suites=scale).");
            return;
        }
        if (chart != null) {
            chart.write(method, stores);
            doc.line("![" + method + ", ops/s by key count, every store](" + chart.link() + ")");
        }
        Columns columns = Columns.of("store", counts);
        Long big = columns.big();
        Long base = columns.base();
        Table table = columns.table();
        List<String> gaps = new ArrayList<>();
        stores.forEach((store, rows) -> {
            List<String> cells = new ArrayList<>(List.of(StoreCatalog.label(store)));
            List<String> missing = new ArrayList<>();
            for (long c : counts) {
                JmhResult r = rows.get(c);
                cells.add(r == null ? "-" : Table.score(Spread.forkMean(r.primaryMetric())));
                if (r == null) {
                    missing.add(keysLabel(c));
                }
            }
            if (!missing.isEmpty()) {
                gaps.add(StoreCatalog.label(store) + " at " + String.join(" and ", missing));
            }
            if (big != null) {
                cells.add(Spread.of(rows.get(big), rows.get(base)).cell());
            }
            table.row(cells);
        });
        doc.table(table);
        if (!gaps.isEmpty()) {
            doc.line("-: no row (not run, stopped or failed; see the JMH log), or a row below its label: "
                    + String.join("; ", gaps) + ".");
        }
        List<String> below = results.stream()
                .filter(r -> StoreRows.cls(r).equals(SINGLE) && r.methodName().equals(method) && StoreRows.belowLabel(r))
                .map(r -> String.format(Locale.ROOT, "%s at %s (%s keys held)", StoreCatalog.label(StoreRows.store(r)),
                        keysLabel(keys(r)), Table.score(StoreRows.secondary(r, KEYS_IN_STORE))))
                .toList();
        if (!below.isEmpty()) {
            doc.line("Not drawn or judged: the store held fewer than " + Math.round(LABEL_SHARE * 100)
                    + "% of its label's keys while measured: " + String.join("; ", below) + ".");
        }
        String absent = StoreCatalog.all().stream()
                .filter(e -> e.role() != StoreCatalog.Role.PARITY && e.role() != StoreCatalog.Role.SENSITIVITY)
                .filter(e -> !e.name().equals(MEMORY_SEGMENT) && !stores.containsKey(e.name()))
                .map(StoreCatalog.Entry::label).collect(Collectors.joining(", "));
        if (!absent.isEmpty()) {
            doc.line("No row at any key count: " + absent + ".");
        }
    }

    /**
     * The columns of a by-key-count table: a first column, one per key count, and the largest count over
     * the one below it when there are two or more.
     *
     * @param headers the column titles
     * @param big the largest key count, or null with fewer than two
     * @param base the key count below {@code big}, or null
     */
    private record Columns(List<String> headers, Long big, Long base) {

        static Columns of(String first, TreeSet<Long> counts) {
            List<String> headers = new ArrayList<>(List.of(first));
            counts.forEach(c -> headers.add(keysLabel(c) + " keys"));
            Long big = counts.size() < 2 ? null : counts.last();
            Long base = big == null ? null : counts.lower(big);
            if (big != null) {
                headers.add(keysLabel(big) + " / " + keysLabel(base) + " (95% interval)");
            }
            return new Columns(headers, big, base);
        }

        Table table() {
            return new Table(headers.toArray(new String[0]));
        }
    }

    /** Open time by key count, with hint files and by a full scan, and the scan's time over the hints'. */
    private static void open(Document doc, List<JmhResult> results) {
        Map<String, Map<String, Map<Long, JmhResult>>> byBackend = new TreeMap<>();
        results.stream().filter(r -> StoreRows.cls(r).equals(OPEN) && keys(r) > 0)
                .forEach(r -> byBackend.computeIfAbsent(r.params().getOrDefault("backend", "MAPPED"), b -> new TreeMap<>())
                        .computeIfAbsent(r.params().getOrDefault("mode", ""), m -> new TreeMap<>())
                        .putIfAbsent(keys(r), r));
        if (byBackend.isEmpty()) {
            return;
        }
        TreeSet<Long> counts = byBackend.values().stream().flatMap(m -> m.values().stream())
                .flatMap(m -> m.keySet().stream()).collect(Collectors.toCollection(TreeSet::new));
        doc.heading("Open time, BitCask: ms, lower is better");
        Columns columns = Columns.of("open", counts);
        Long big = columns.big();
        Long base = columns.base();
        Table table = columns.table();
        byBackend.forEach((backend, modes) -> {
            Map<Long, JmhResult> hints = modes.getOrDefault("hints", Map.of());
            Map<Long, JmhResult> scan = modes.getOrDefault("scan", Map.of());
            for (Map.Entry<String, Map<Long, JmhResult>> mode : modes.entrySet()) {
                List<String> cells = new ArrayList<>(List.of(backend + ", " + modeLabel(mode.getKey())));
                counts.forEach(c -> cells.add(Optional.ofNullable(mode.getValue().get(c))
                        .map(r -> Spread.withForks(r.primaryMetric())).orElse("-")));
                if (big != null) {
                    cells.add(Spread.of(mode.getValue().get(big), mode.getValue().get(base)).cell());
                }
                table.row(cells);
            }
            List<String> ratio = new ArrayList<>(List.of(backend + ", full scan / with hint files (95% interval)"));
            counts.forEach(c -> ratio.add(Spread.of(scan.get(c), hints.get(c)).cell()));
            table.row(ratio);
        });
        doc.table(table);
        doc.line("Each open is timed once per iteration, the page cache warm: reading and parsing, not the disk.")
                .line("In brackets: the lowest and highest of the forks' means.");
    }

    private static String modeLabel(String mode) {
        return switch (mode) {
            case "hints" -> "with hint files";
            case "scan" -> "full scan, hint files removed";
            default -> mode;
        };
    }

    /** The goals at {@link #GOAL_KEYS}, each against its figure with its interval ({@link Goal}). */
    private static void goals(Document doc, List<JmhResult> results) {
        doc.heading("Goals at " + keysLabel(GOAL_KEYS) + " keys");
        Table table = new Table("goal", "measured (95% interval)", "goal", "reading");
        String goalKeys = keysLabel(GOAL_KEYS);
        String baseKeys = keysLabel(BASE_KEYS);
        for (String store : List.of(StoreRows.MAPPED, StoreRows.FILE_CHANNEL)) {
            for (String method : List.of("get", "put")) {
                Map<Long, JmhResult> rows = byStore(results, method).getOrDefault(store, Map.of());
                Spread s = Spread.of(rows.get(GOAL_KEYS), rows.get(BASE_KEYS));
                String name = method + ", " + StoreCatalog.label(store) + ": " + goalKeys + " keys / " + baseKeys
                        + " keys";
                Goal goal = Goal.atLeast(KEEP);
                table.row(name, Double.isNaN(s.value()) ? "not measured" : s.cell(), goal.text(), goal.reading(s));
            }
        }
        Optional<JmhResult> hints = openRow(results, "hints", GOAL_KEYS);
        Optional<JmhResult> scan = openRow(results, "scan", GOAL_KEYS);
        Goal open = Goal.atMost(OPEN_MS);
        table.row("open " + goalKeys + " keys with hint files, ms",
                hints.map(r -> Spread.withForks(r.primaryMetric())).orElse("not measured"),
                open.text(), hints.map(r -> open.reading(Spread.ofMean(r.primaryMetric()), "ms")).orElse(""));
        Spread s = Spread.of(scan.orElse(null), hints.orElse(null));
        Goal scanGoal = Goal.atLeast(SCAN_OVER_HINTS);
        table.row("full scan time / open with hint files, " + goalKeys + " keys",
                Double.isNaN(s.value()) ? "not measured" : s.cell(), scanGoal.text(), scanGoal.reading(s));
        doc.table(table);
        doc.line("Rows without a figure are measured by the scale suite (-Dcaskbench.suites=scale).");
    }

    /** BitCask MAPPED's open row (the open benchmark's default backend) of a mode at a key count. */
    private static Optional<JmhResult> openRow(List<JmhResult> results, String mode, long keys) {
        return results.stream().filter(r -> StoreRows.cls(r).equals(OPEN) && keys(r) == keys)
                .filter(r -> mode.equals(r.params().get("mode")))
                .filter(r -> "MAPPED".equals(r.params().getOrDefault("backend", "MAPPED"))).findFirst();
    }

    /** A row's {@code keyCount}, or 0 when it has none. */
    private static long keys(JmhResult r) {
        try {
            return Long.parseLong(r.params().getOrDefault("keyCount", "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code 100k}, {@code 1M}, {@code 10M}, {@code 1.5M}: a key count as people say it. */
    static String keysLabel(long keys) {
        return Charts.shortNumber(keys);
    }

    /** Where one throughput chart goes, and how the docs link it. */
    private record ChartFile(Charted where, String name) {

        String link() {
            return where.link() + "/" + name;
        }

        /** Draws every charted store's line and writes the chart. */
        void write(String method, Map<String, Map<Long, JmhResult>> stores) {
            List<ScaleChart.Line> lines = new ArrayList<>();
            stores.forEach((store, rows) -> {
                if (CHARTED.contains(StoreCatalog.role(store))) {
                    TreeMap<Long, Double> points = new TreeMap<>();
                    rows.forEach((keys, r) -> points.put(keys, Spread.forkMean(r.primaryMetric())));
                    // The legend leaves the plot room: "in-memory reference", without what the tables explain.
                    lines.add(new ScaleChart.Line(StoreCatalog.label(store).replaceFirst(" \\(.*\\)$", ""), points));
                }
            });
            ScaleChart.svg("scale: " + method + ", one thread, 100-byte values, random order", method, lines,
                    where.machine(), "scale-" + method + "-").writeTo(where.images().resolve(name));
        }
    }
}
