package io.caskbench.report.table;

import static io.caskbench.report.table.ForkExtremes.max;
import static io.caskbench.report.table.ForkExtremes.min;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.OpenLoopRule;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The latency suite's open-loop tables ({@link LatencyTables} puts them first): the tails among 64 threads
 * at each arrival rate, and the get tail with a merge against without, each row followed by its forks'
 * harness passes ({@link OpenLoopRule}). Each percentile cell is the pooled value over every fork's samples,
 * then each fork's own in brackets.
 */
final class OpenLoopTables {

    /** The open-loop tail benchmark and the merge one, as {@code Class}. */
    static final String TAIL = "MixedTailOpenLoop";
    /** The open-loop merge benchmark. */
    static final String MERGE = "MergeTailOpenLoop";

    private OpenLoopTables() {
    }

    /** The tails among 64 threads: a row per backend, rate and kind of operation, then the harness passes'. */
    static void tail(Document doc, StoreRows rows) {
        List<OpenLoopRow> mix = open(rows, TAIL, "mix");
        if (mix.isEmpty()) {
            return;
        }
        doc.heading("Open-loop tails among 64 threads: 95% get, 5% put, 1 KiB values, at fixed arrival rates");
        Table table = new Table(header("op"));
        Map<String, Double> goals = new LinkedHashMap<>();
        goals.put("p99", LatencyTables.TAIL_P99_US);
        goals.put("p99.9", LatencyTables.TAIL_P999_US);
        String goal = String.format(Locale.ROOT, "put p99 <= %.0f, p99.9 <= %.0f", LatencyTables.TAIL_P99_US,
                LatencyTables.TAIL_P999_US);
        boolean harness = OpenLoopRow.anyHarness(mix);
        for (OpenLoopRow row : mix) {
            for (String op : List.of("get", "put")) {
                boolean judged = op.equals("put");
                table.row(cells(row, row.result().params().get("backend"), op, judged ? goal : "",
                        judged ? row.verdict(op, goals) : ""));
            }
            if (harness) {
                table.row(harnessCells(row, "all"));
            }
        }
        if (!harness) {
            table.row(OpenLoopRule.HARNESS, "", "", "all", OpenLoopRule.NO_FLOOR);
        }
        doc.table(table);
        doc.line("Each operation is timed from when it was due, not from when it started (bench-jmh's open-loop "
                + "driver), so a stall counts against every operation queued behind it. Each cell: the percentile of "
                + "all forks' samples pooled, then each fork's own in brackets, microseconds. A goal is met when every "
                + "fork's put p99 and p99.9 are within it, not met when none are, undetermined otherwise. A percentile "
                + "q is judged only when every fork has at least 10 / (1 - q) samples of its kind (1,000 for p99, "
                + "10,000 for p99.9), else it says too few samples; a verdict from fewer than "
                + OpenLoopRow.FIRM_FORKS + " forks is indicative.");
        doc.line(OpenLoopRule.LEGEND);
    }

    /** The get tail with a merge running back to back against without, per backend and rate. */
    static void merge(Document doc, StoreRows rows) {
        List<OpenLoopRow> all = open(rows, MERGE, "rw");
        if (all.isEmpty()) {
            return;
        }
        doc.heading("Open-loop get tail beside a merge: two threads, half gets, half overwrites, merge back to back "
                + "against none");
        Table table = new Table(header("merge", "get p99 merge / none (spread)",
                "goal", "verdict"));
        boolean harness = OpenLoopRow.anyHarness(all);
        for (OpenLoopRow row : all) {
            Map<String, String> p = row.result().params();
            String backend = p.get("backend");
            String merge = p.get("merge");
            Optional<OpenLoopRow> none = all.stream().filter(r -> backend.equals(r.result().params().get("backend"))
                    && p.get("rate").equals(r.result().params().get("rate"))
                    && "NONE".equals(r.result().params().get("merge"))).findFirst();
            List<String> cells = cells(row, backend, merge, null, null);
            if ("NONE".equals(merge) || none.isEmpty()) {
                cells.addAll(List.of("", "", ""));
            } else {
                Optional<String> noRatio = row.noRatio(none.get(), "get", "p99");
                Spread ratio = ratio(row, none.get());
                cells.add(noRatio.orElse(ratio.cell()));
                cells.add(String.format(Locale.ROOT, "<= %.1f", LatencyTables.MERGE_GET_P99));
                cells.add(noRatio.isPresent() ? "no verdict"
                        : !row.enoughSamples("get", "p99") || !none.get().enoughSamples("get", "p99")
                        ? "too few samples (p99 needs " + Table.score(OpenLoopRow.samplesNeeded("p99"))
                                + " gets per fork): no verdict"
                        : verdict(ratio, LatencyTables.MERGE_GET_P99));
            }
            table.row(cells);
            if (harness) {
                table.row(harnessCells(row, merge));
            }
        }
        if (!harness) {
            table.row(OpenLoopRule.HARNESS, "", "", "", OpenLoopRule.NO_FLOOR);
        }
        doc.table(table);
        doc.line("Gets timed from when they were due, at each fixed arrival rate; cells as above (pooled, then each "
                + "fork's own). The ratio is pooled get p99 with a merge over without at the same backend and rate, its "
                + "spread from the forks' own p99s (smallest over largest, largest over smallest): met when the whole "
                + "spread is within the goal, not met when none of it is, undetermined otherwise; judged only with "
                + "1,000 gets per fork, and indicative from fewer than " + OpenLoopRow.FIRM_FORKS + " forks.");
        doc.line(OpenLoopRule.LEGEND);
    }

    /** The harness passes' row of {@code row}: label, rate, their achieved rate, {@code what}, percentiles. */
    private static List<String> harnessCells(OpenLoopRow row, String what) {
        List<String> cells = new ArrayList<>(List.of(OpenLoopRule.HARNESS, Table.score(row.offered()),
                row.harnessAchievedCell(), what));
        cells.addAll(row.harnessCells());
        return cells;
    }

    /** The open-loop rows of {@code cls.method}, by backend, then rate, then merge mode (none first). */
    private static List<OpenLoopRow> open(StoreRows rows, String cls, String method) {
        return rows.of(cls).stream().filter(r -> r.methodName().equals(method)).filter(OpenLoopRow::isOpenLoop)
                .sorted(Comparator.comparing((JmhResult r) -> r.params().getOrDefault("backend", ""))
                        .thenComparingDouble(r -> Double.parseDouble(r.params().getOrDefault("rate", "0")))
                        .thenComparing(r -> "NONE".equals(r.params().get("merge")) ? ""
                                : r.params().getOrDefault("merge", "")))
                .map(OpenLoopRow::new).toList();
    }

    private static String[] header(String kind, String... more) {
        List<String> h = new ArrayList<>(List.of("backend", "rate ops/s", "achieved ops/s (forks)", kind));
        OpenLoopRow.PERCENTILES.forEach(p -> h.add(p + " us, pooled (forks)"));
        h.addAll(more.length > 0 ? List.of(more) : List.of("goal", "verdict"));
        return h.toArray(String[]::new);
    }

    /**
     * A row's cells: label, rate, achieved, {@code what}, the percentiles (of puts when {@code what} is
     * {@code put}, else of gets), then goal and verdict unless null.
     */
    private static List<String> cells(OpenLoopRow row, String label, String what, String goal, String verdict) {
        List<String> cells = new ArrayList<>(List.of(label, Table.score(row.offered()), row.achievedCell(), what));
        String op = what.equals("put") ? "put" : "get";
        OpenLoopRow.PERCENTILES.forEach(p -> cells.add(row.cell(op, p)));
        if (goal != null) {
            cells.add(goal);
            cells.add(verdict);
        }
        return cells;
    }

    /** Pooled get p99 of {@code merge} over {@code none}, spread over the forks' own p99s. */
    static Spread ratio(OpenLoopRow merge, OpenLoopRow none) {
        double value = merge.pooled("get", "p99") / none.pooled("get", "p99");
        List<Double> fm = merge.forks("get", "p99");
        List<Double> fn = none.forks("get", "p99");
        int forks = Math.min(fm.size(), fn.size());
        if (forks < 2) {
            return new Spread(value, Double.NaN, Double.NaN, forks);
        }
        return new Spread(value, min(fm) / max(fn), max(fm) / min(fn), forks);
    }

    private static String verdict(Spread s, double goal) {
        if (Double.isNaN(s.value())) {
            return "";
        }
        if (!s.hasSpread()) {
            return "undetermined (one fork)";
        }
        String verdict = s.high() <= goal ? "met" : s.low() > goal ? "not met" : "undetermined";
        return s.forks() < OpenLoopRow.FIRM_FORKS ? verdict + ", indicative (" + s.forks() + " forks)" : verdict;
    }
}
