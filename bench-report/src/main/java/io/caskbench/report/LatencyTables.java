package io.caskbench.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The latency suite's comparison: for each BitCask backend, what a merge running back to back does to get
 * p99 and put throughput, and the put tail among 64 threads. Every ratio comes with its spread over the
 * forks (each fork's own percentile, from the histogram JMH keeps), and a target is met only when the
 * whole spread clears it.
 *
 * <p>The benchmarks are JMH groups: the result is the group ({@code MergeLatency.rw},
 * {@code MixedTail.mix}), its members' times are its secondary metrics {@code get} and {@code put}, and
 * their percentiles are the derived metrics {@code get:p0.99} and so on. A derived metric's raw data is the
 * percentile of each iteration; a fork's percentile here is the mean of its iterations', as a fork's
 * score is the mean of its iterations' scores elsewhere in the report.
 */
public final class LatencyTables {

    /** Merge's get p99 may grow to this multiple of the same run's without merge. */
    static final double MERGE_GET_P99 = 1.5;
    /** Merge's put throughput must stay at this fraction of the same run's without merge, or above. */
    static final double MERGE_PUT_THROUGHPUT = 0.8;
    /** The merge modes with a row each: the store's default (paced), then pacing off. */
    static final List<String> MERGE_MODES = List.of("BACK_TO_BACK", "BACK_TO_BACK_UNPACED");
    /** The put p99 goal among 64 threads, microseconds. */
    static final double TAIL_P99_US = 1_000;
    /** The put p99.9 goal among 64 threads, microseconds. */
    static final double TAIL_P999_US = 5_000;

    private LatencyTables() {
    }

    /** The comparison of a latency run's results; a part without results says which suite measures it. */
    public static Document render(List<JmhResult> results) {
        Document doc = new Document();
        StoreRows rows = new StoreRows(results);
        merge(doc, rows);
        tail(doc, rows);
        return doc;
    }

    private static void merge(Document doc, StoreRows rows) {
        doc.heading("Merge and the foreground: one reader, one writer, merge back to back against none");
        Table table = new Table("backend", "get p99 us, no merge", "get p99 us, merge", "merge / none (spread)",
                "goal", "met", "put mean us, no merge", "put mean us, merge", "put throughput merge / none (spread)",
                "goal", "met");
        for (String backend : backends(rows, "MergeLatency", "rw")) {
            Optional<JmhResult> none = rows.where("MergeLatency", "rw", Map.of("backend", backend, "merge", "NONE"));
            Optional<Metric> getNone = metric(none, "get:p0.99");
            Optional<Metric> putNone = metric(none, "put");
            for (String mode : MERGE_MODES) {
                Optional<JmhResult> merging = rows.where("MergeLatency", "rw", Map.of("backend", backend, "merge", mode));
                if (merging.isEmpty() && !mode.equals(MERGE_MODES.get(0))) {
                    continue; // a run without the unpaced rows
                }
                Optional<Metric> getMerge = metric(merging, "get:p0.99");
                Optional<Metric> putMerge = metric(merging, "put");
                Spread getRatio = forkRatio(getMerge, getNone);
                // Throughput merge / none is mean time none / merge.
                Spread putRatio = Spread.of(putNone.orElse(null), putMerge.orElse(null));
                table.row(mode.equals(MERGE_MODES.get(0)) ? backend : backend + ", unpaced", forkMean(getNone),
                        forkMean(getMerge), getRatio.cell(),
                        String.format(Locale.ROOT, "<= %.1f", MERGE_GET_P99), met(getRatio, MERGE_GET_P99, false),
                        mean(putNone), mean(putMerge), putRatio.cell(),
                        String.format(Locale.ROOT, ">= %.1f", MERGE_PUT_THROUGHPUT), met(putRatio, MERGE_PUT_THROUGHPUT, true));
            }
        }
        doc.table(table);
        doc.line("A backend's first row is the store's default, a merge paced by the foreground's latency; its "
                + "\"unpaced\" row has mergePacing(false). Rows without a figure are measured by the latency suite "
                + "(-Dcaskbench.suites=latency).");
    }

    private static void tail(Document doc, StoreRows rows) {
        doc.heading("The write tail among 64 threads: 61 reading, 3 overwriting, 1 KiB values");
        Table table = new Table("backend", "put p50 us", "put p99 us (forks)", "goal", "met", "put p99.9 us (forks)",
                "goal", "met", "get p99 us (forks)");
        for (String backend : backends(rows, "MixedTail", "mix")) {
            Optional<JmhResult> mix = rows.where("MixedTail", "mix", Map.of("backend", backend));
            Optional<Metric> putP99 = metric(mix, "put:p0.99");
            Optional<Metric> putP999 = metric(mix, "put:p0.999");
            table.row(backend, forkMean(metric(mix, "put:p0.50")), withForks(putP99),
                    String.format(Locale.ROOT, "<= %.0f", TAIL_P99_US), metAbsolute(putP99, TAIL_P99_US),
                    withForks(putP999), String.format(Locale.ROOT, "<= %.0f", TAIL_P999_US),
                    metAbsolute(putP999, TAIL_P999_US), withForks(metric(mix, "get:p0.99")));
        }
        Optional<JmhResult> harness = rows.where("MixedTail", "harness", Map.of());
        if (harness.isPresent()) {
            table.row("harness alone", forkMean(metric(harness, "harnessPut:p0.50")), withForks(metric(harness, "harnessPut:p0.99")),
                    "", "", withForks(metric(harness, "harnessPut:p0.999")), "", "", withForks(metric(harness, "harnessGet:p0.99")));
        }
        doc.table(table);
        doc.line("Each percentile is the mean of the forks' own (each fork's is the mean of its iterations'), with the "
                + "forks' range in brackets; it is met only when every fork's is within the goal. The harness row fetches "
                + "the same keys on the same 64 threads and calls no store: what waiting for a core costs here.");
    }

    /** The backends a benchmark method has results for, sorted. */
    private static TreeSet<String> backends(StoreRows rows, String cls, String method) {
        TreeSet<String> out = new TreeSet<>();
        rows.of(cls).stream().filter(r -> r.methodName().equals(method)).map(r -> r.params().get("backend"))
                .filter(b -> b != null).forEach(out::add);
        return out;
    }

    /** A group's secondary metric, such as {@code put} or {@code put:p0.99}. */
    private static Optional<Metric> metric(Optional<JmhResult> group, String name) {
        return group.map(r -> r.secondaryMetrics().get(name));
    }

    private static String mean(Optional<Metric> m) {
        return m.map(x -> Table.score(x.score())).orElse("");
    }

    /** The mean of the forks' values, or the metric's score without raw data. */
    private static String forkMean(Optional<Metric> m) {
        return m.map(x -> Table.score(Spread.forkMean(x))).orElse("");
    }

    /** {@code a} over {@code b} by the means of their forks, with the range any pairing of forks gives. */
    static Spread forkRatio(Optional<Metric> a, Optional<Metric> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<Double> fa = Spread.forkMeans(a.get());
        List<Double> fb = Spread.forkMeans(b.get());
        double value = Spread.forkMean(a.get()) / Spread.forkMean(b.get());
        int forks = Math.min(fa.size(), fb.size());
        return forks < 2 ? new Spread(value, Double.NaN, Double.NaN, forks)
                : new Spread(value, min(fa) / max(fb), max(fa) / min(fb), forks);
    }

    /** The mean of the forks' own percentiles, then their range in brackets. */
    private static String withForks(Optional<Metric> m) {
        return m.map(Spread::withForks).orElse("");
    }

    /** Met only when the whole spread clears the goal, missed when none of it does, else within the spread. */
    private static String met(Spread s, double goal, boolean atLeast) {
        if (Double.isNaN(s.value())) {
            return "";
        }
        if (!s.hasSpread()) {
            return ((atLeast ? s.value() >= goal : s.value() <= goal) ? "yes" : "NO") + " (no spread)";
        }
        double worst = atLeast ? s.low() : s.high();
        double best = atLeast ? s.high() : s.low();
        if (atLeast ? worst >= goal : worst <= goal) {
            return "yes";
        }
        return (atLeast ? best < goal : best > goal) ? "NO" : "within spread";
    }

    /** Met when every fork's own percentile is within the goal. */
    private static String metAbsolute(Optional<Metric> m, double goal) {
        if (m.isEmpty()) {
            return "";
        }
        List<Double> forks = Spread.forkMeans(m.get());
        double worst = forks.isEmpty() ? m.get().score() : max(forks);
        return worst <= goal ? "yes" : "NO";
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
