package io.caskbench.report.table;

import io.caskbench.report.chart.OverwriteChart;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.OverwriteSeries;
import io.caskbench.report.rule.OpenLoopRule;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The overwrite suite's docs block: a summary table of every row, the targets judged on the store's
 * default settings (RocksDB's write amplification beside them), and, per store, charts of throughput, space
 * amplification and put p99 over time drawn from the time series the forks wrote into the run folder
 * ({@link OverwriteSeries}; compressed in a committed run).
 */
public final class OverwriteTables {

    /** The store setting the targets judge. */
    static final String JUDGED = "BITCASK_DEFAULT";
    /** The peer whose write amplification stands beside the judged one. */
    static final String PEER = "ROCKSDB_DEFAULT";
    /** Space amplification may reach this at most while the workload runs. */
    static final double SPACE_AMP_TARGET = 1.5;
    /** Write amplification may reach this at most. */
    static final double WRITE_AMP_TARGET = 3;
    /** Put throughput over the whole run over the first minute's must reach this at least. */
    static final double DRIFT_TARGET = 0.7;

    private OverwriteTables() {
    }

    /**
     * The block's document.
     *
     * @param rows the overwrite suite's JMH rows
     * @param results the run folder, where the time series are; its name names the charts
     * @param machine who measured it and when, printed on the charts
     * @param images the folder the charts are written into, or null for tables only
     * @param link how the Markdown file reaches that folder
     */
    public static Document render(List<JmhResult> rows, Path results, String machine, Path images, String link) {
        Document doc = new Document();
        doc.line("Each row: a fresh store holding every key once, then overwritten for the run's length, 80% puts and")
                .line("20% gets, keys drawn uniformly or Zipfian (theta 0.99), 16-byte keys. Space amplification is")
                .line("disk usage (du) over keys x (key + value) bytes; write amplification is the fork's")
                .line("/proc/self/io write_bytes over the bytes put. Latencies at a fixed rate are open loop, from each")
                .line("operation's intended start; at full speed they are closed loop and judge nothing. Merges are")
                .line("BitCask's merges or RocksDB's compactions, counted and timed by the store itself; the largest")
                .line("input is one merge's bytes read (RocksDB does not report one compaction's). Run/first minute is")
                .line("puts per second over the whole run over those in its first minute, last/first minute those in")
                .line("the last minute over the first's (halves of the run when it is shorter than two minutes).");
        Table table = new Table("store", "value", "skew", "load", "achieved ops/s", "space amp max", "space amp mean",
                "write amp", "run/first minute", "last/first minute", "put p99 us", "get p99 us", "merges", "merge ms", "longest merge ms",
                "largest merge input");
        Table targets = new Table("row", "space amp <= 1.5", "write amp <= 3", "RocksDB write amp (defaults)",
                "run/first minute >= 0.7", "one merge's input bounded");
        List<OpenLoopRow> open = rows.stream().filter(r -> !fullSpeed(r.params())).map(OpenLoopRow::new).toList();
        boolean harness = OpenLoopRow.anyHarness(open);
        for (JmhResult r : rows) {
            Map<String, String> p = r.params();
            String load = load(p);
            OpenLoopRow ol = fullSpeed(p) ? null : new OpenLoopRow(r);
            table.row(p.getOrDefault("store", "?"), p.getOrDefault("valueSize", "?"), lower(p.get("skew")), load,
                    ol == null ? Table.score(figure(r, "achieved")) : ol.achievedCell(),
                    two(figure(r, "spaceAmpMax")), two(figure(r, "spaceAmpMean")),
                    two(figure(r, "writeAmp")), two(figure(r, "throughputRunOverFirstMinute")),
                    two(figure(r, "throughputLastOverFirstMinute")),
                    p99(r, ol, "put"), p99(r, ol, "get"),
                    count(figure(r, "compactions")), count(figure(r, "compactionMillis")),
                    count(figure(r, "longestCompactionMillis")), mib(figure(r, "largestCompactionBytes")));
            if (ol != null && harness) {
                String floor = ol.hasHarness() ? Table.score(figure(r, "harness:p99")) : "not in this run";
                table.row(OpenLoopRule.HARNESS, p.getOrDefault("valueSize", "?"), lower(p.get("skew")), load, "", "",
                        "", "", "", "", floor, floor);
            }
            if (JUDGED.equals(p.get("store"))) {
                boolean fullSpeed = fullSpeed(p);
                targets.row(p.get("valueSize") + " B, " + lower(p.get("skew")) + ", " + load,
                        atMost(figure(r, "spaceAmpMax"), SPACE_AMP_TARGET), writeAmp(figure(r, "writeAmp")),
                        two(figure(peer(rows, p), "writeAmp")),
                        fullSpeed ? atLeast(figure(r, "throughputRunOverFirstMinute"), DRIFT_TARGET)
                                : "fixed rate: not judged",
                        bounded(figure(r, "largestCompactionBytes"), figure(r, "compactionInputBound")));
            }
        }
        if (!open.isEmpty() && !harness) {
            table.row(OpenLoopRule.HARNESS, "", "", "", OpenLoopRule.NO_FLOOR);
        }
        doc.table(table);
        if (!open.isEmpty()) {
            doc.line("At a fixed rate, a harness row follows each row: its put and get p99 cells hold the p99 of the "
                    + "harness pass before the run's first interval, of all its operations. " + OpenLoopRule.LEGEND);
        }
        if (!targets.isEmpty()) {
            doc.heading("Targets, at the default settings");
            doc.table(targets);
        }
        if (images != null) {
            charts(doc, OverwriteSeries.list(results), String.valueOf(results.getFileName()), machine, images, link);
        }
        return doc;
    }

    /**
     * One chart per store, its throughput, space amplification and put p99 panels stacked, written into
     * {@code images} and linked, its file named with the run ({@code overwrite-<run>-<store>.svg}) so a
     * later run never replaces a published one.
     */
    private static void charts(Document doc, List<OverwriteSeries> series, String run, String machine, Path images,
            String link) {
        Map<String, List<OverwriteSeries>> byStore = new LinkedHashMap<>();
        series.forEach(s -> byStore.computeIfAbsent(s.store(), k -> new ArrayList<>()).add(s));
        byStore.forEach((store, lines) -> {
            String stem = "overwrite-" + run + "-" + lower(store);
            OverwriteChart.panels(store + " (run " + run + ")", lines, machine, stem + "-")
                    .writeTo(images.resolve(stem + ".svg"));
            doc.heading(store + " over time");
            doc.line("![" + store + ": throughput, space amplification and put p99 over time, run " + run + "]("
                    + link + "/" + stem + ".svg)");
        });
    }

    /** RocksDB at its defaults on the same value size, skew and load as {@code params}, or null. */
    private static JmhResult peer(List<JmhResult> rows, Map<String, String> params) {
        for (JmhResult r : rows) {
            Map<String, String> q = r.params();
            if (PEER.equals(q.get("store")) && Objects.equals(q.get("valueSize"), params.get("valueSize"))
                    && Objects.equals(q.get("skew"), params.get("skew"))
                    && Objects.equals(q.get("rate"), params.get("rate"))) {
                return r;
            }
        }
        return null;
    }

    /** {@code 64.0 MiB of at most 1024.0 MiB: met}, or by how much the largest merge passed its bound. */
    static String bounded(double largest, double bound) {
        if (Double.isNaN(largest)) {
            return "n/a (no merge finished)";
        }
        if (Double.isNaN(bound)) {
            return mib(largest) + ", no bound set";
        }
        return largest <= bound ? mib(largest) + " of at most " + mib(bound) + ": met"
                : mib(largest) + " of at most " + mib(bound) + String.format(Locale.ROOT, ": missed by %.0f%%",
                        (largest / bound - 1) * 100);
    }

    /** Whether a row ran at full speed, closed loop ({@code rate} 0), rather than at a fixed rate. */
    private static boolean fullSpeed(Map<String, String> params) {
        return "0".equals(params.getOrDefault("rate", "0"));
    }

    /** A row's p99 of kind {@code op}; at a fixed rate, marked when at the harness floor. */
    private static String p99(JmhResult r, OpenLoopRow open, String op) {
        String value = Table.score(figure(r, op + ":p99"));
        return open != null && open.forkMeanAtFloor(op, "p99") ? value + ", " + OpenLoopRule.AT_FLOOR : value;
    }

    /** {@code 20,000 ops/s}, or {@code full speed (closed loop)}. */
    static String load(Map<String, String> params) {
        String rate = params.getOrDefault("rate", "0");
        return "0".equals(rate) ? "full speed (closed loop)" : Table.score(Double.parseDouble(rate)) + " ops/s";
    }

    /** A figure's mean over forks, NaN when the row (or the row itself) lacks it. */
    static double figure(JmhResult r, String name) {
        Metric m = r == null ? null : r.secondaryMetrics().get(name);
        return m == null ? Double.NaN : m.score();
    }

    /** {@code 1.32 met}, or {@code 1.62 missed by 8%}. */
    static String atMost(double value, double target) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value <= target ? two(value) + " met"
                : two(value) + String.format(Locale.ROOT, " missed by %.0f%%", (value / target - 1) * 100);
    }

    /**
     * The write amplification verdict; none when the fork counted no device byte at all (a tmpfs, or a run
     * too short for the kernel to account the pages it dirtied), which would read as a perfect 0.
     */
    static String writeAmp(double value) {
        return value == 0 ? "n/a (no device bytes counted)" : atMost(value, WRITE_AMP_TARGET);
    }

    /** {@code 0.82 met}, or {@code 0.56 missed by 20%}. */
    static String atLeast(double value, double target) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value >= target ? two(value) + " met"
                : two(value) + String.format(Locale.ROOT, " missed by %.0f%%", (1 - value / target) * 100);
    }

    private static String two(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }

    /** A count or milliseconds, whole; {@code n/a} when unknown. */
    static String count(double n) {
        return Double.isNaN(n) ? "n/a" : String.format(Locale.ROOT, "%,.0f", n);
    }

    /** Bytes in MiB, one decimal; {@code n/a} when unknown. */
    static String mib(double bytes) {
        return Double.isNaN(bytes) ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }

    private static String lower(String s) {
        return s == null ? "?" : s.toLowerCase(Locale.ROOT);
    }
}
