package io.caskbench.report.table;

import static io.caskbench.report.table.ForkExtremes.max;
import static io.caskbench.report.table.ForkExtremes.min;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.OpenLoopRule;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The latency suite's comparison. Its tails are measured open-loop (bench-jmh's open-loop driver: a fixed
 * arrival rate, each operation timed from its intended start) and shown at each rate as p50, p99, p99.9 and
 * max, each cell the percentile of every fork's samples pooled, then each fork's own in brackets, and each row
 * is followed by its forks' harness passes. The open-loop rules ({@link io.caskbench.report.rule.OpenLoopRule})
 * hold: a row that did not keep up judges nothing, and a percentile at its harness floor judges no goal; a
 * goal on a percentile is judged by every fork's own value: met when all are within it, not met when none is,
 * otherwise undetermined.
 *
 * <p>Rows timed back to back (JMH's sample mode: {@code MergeLatency.rw}, {@code MixedTail.mix}) are
 * labelled "closed loop" and judge no percentile goal: a stall there delays the operations that would have
 * been issued during it, and those are never timed (coordinated omission). Their throughput, which a stall
 * cannot hide, still judges its goal: what a merge costs the writer. Their groups' members' times are the
 * secondary metrics {@code get} and {@code put}, their percentiles {@code get:p0.99} and so on; a fork's
 * value is the mean of its iterations'.
 */
public final class LatencyTables {

    /** Merge's get p99 may grow to this multiple of the same run's without merge. */
    static final double MERGE_GET_P99 = 1.5;
    /** Merge's put throughput must stay at this fraction of the same run's without merge, or above. */
    static final double MERGE_PUT_THROUGHPUT = 0.8;
    /** The merge modes with a row each: the store's default (paced), then pacing off. */
    static final List<String> MERGE_MODES = List.of("BACK_TO_BACK", "BACK_TO_BACK_UNPACED");
    /** The label of every row timed back to back. */
    static final String CLOSED = "closed loop";
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
        OpenLoopTables.tail(doc, rows);
        OpenLoopTables.merge(doc, rows);
        merge(doc, rows);
        if (!rows.of("MixedTail").isEmpty()) {
            tail(doc, rows);
        }
        return doc;
    }

    private static void merge(Document doc, StoreRows rows) {
        doc.heading("Merge and the writer's throughput: one reader, one writer back to back, merge against none");
        Table table = new Table("backend", "get p99 us, no merge (" + CLOSED + ")", "get p99 us, merge (" + CLOSED + ")",
                "merge / none (spread, " + CLOSED + ")", "put mean us, no merge", "put mean us, merge",
                "put throughput merge / none (spread)",
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
                        forkMean(getMerge), getRatio.cell(), mean(putNone), mean(putMerge), putRatio.cell(),
                        String.format(Locale.ROOT, ">= %.1f", MERGE_PUT_THROUGHPUT), met(putRatio, MERGE_PUT_THROUGHPUT, true));
            }
        }
        doc.table(table);
        doc.line("A backend's first row is the store's default, a merge paced by the foreground's latency; its "
                + "\"unpaced\" row has mergePacing(false). The get p99 here is " + CLOSED + ", timed back to back: it "
                + "judges no goal (the open-loop table above does); the put throughput judges its goal. Rows without a "
                + "figure are measured by the latency suite (-Dcaskbench.suites=latency).");
    }

    private static void tail(Document doc, StoreRows rows) {
        doc.heading("The write tail among 64 threads, " + CLOSED + ": 61 reading, 3 overwriting, 1 KiB values");
        Table table = new Table("backend", "put p50 us", "put p99 us (forks)", "put p99.9 us (forks)", "get p99 us (forks)",
                "goal");
        for (String backend : backends(rows, "MixedTail", "mix")) {
            Optional<JmhResult> mix = rows.where("MixedTail", "mix", Map.of("backend", backend));
            table.row(backend + " (" + CLOSED + ")", forkMean(metric(mix, "put:p0.50")), withForks(metric(mix, "put:p0.99")),
                    withForks(metric(mix, "put:p0.999")), withForks(metric(mix, "get:p0.99")), "none: " + CLOSED);
        }
        Optional<JmhResult> harness = rows.where("MixedTail", "harness", Map.of());
        if (harness.isPresent()) {
            table.row(OpenLoopRule.HARNESS + " (" + CLOSED + ")", forkMean(metric(harness, "harnessPut:p0.50")),
                    withForks(metric(harness, "harnessPut:p0.99")), withForks(metric(harness, "harnessPut:p0.999")),
                    withForks(metric(harness, "harnessGet:p0.99")), "");
        }
        doc.table(table);
        doc.line("Timed back to back by JMH's sample mode, so an operation delayed by a stall is never timed: these "
                + "percentiles judge no goal. Each is the mean of the forks' own, with their range in brackets.");
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
}
