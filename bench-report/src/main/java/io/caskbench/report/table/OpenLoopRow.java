package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.OpenLoopRule;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One open-loop row of a JMH result file, as bench-jmh's open-loop profiler writes it: per fork (one
 * measured iteration each) the latency percentiles {@code p50}, {@code p99}, {@code p99.9}, {@code max} in
 * microseconds, timed from each operation's intended start, per kind of operation ({@code get:p99}) and for
 * all; the distribution {@code latency} (or {@code get:latency}), whose percentiles JMH computes over every
 * fork's samples together; the rates {@code offered} and {@code achieved}, and {@code unfinished}; and, from a
 * run with harness passes, the same percentiles of each fork's harness pass ({@code harness:p99},
 * {@code harness:latency}), which {@link OpenLoopRule} holds every percentile against. The rules decide
 * here, for every table: whether the row kept up, which percentiles are at the floor, and what may be
 * judged. Immutable.
 */
final class OpenLoopRow {

    /** The percentiles every open-loop row has, in table order. */
    static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9", "max");
    /** The kind under which the harness pass's metrics are named: {@code harness:p99}. */
    static final String HARNESS = "harness";
    /** Forks a verdict needs to be more than indicative: the spread of fewer runs says little about a tail. */
    static final int FIRM_FORKS = 5;
    /** Where JMH's pooled percentiles of a distribution metric sit, by percentile name. */
    private static final Map<String, String> POOLED = Map.of("p50", "50.0", "p99", "99.0", "p99.9", "99.9");

    private final JmhResult result;

    OpenLoopRow(JmhResult result) {
        this.result = result;
    }

    /** Whether a result was measured open-loop: it reports the rate it was offered. */
    static boolean isOpenLoop(JmhResult r) {
        return r.secondaryMetrics().containsKey("offered");
    }

    /** The result. */
    JmhResult result() {
        return result;
    }

    /** The metric name of percentile {@code p} of kind {@code op} ({@code get}, {@code put}; empty: all operations). */
    private static String name(String op, String p) {
        return op.isEmpty() ? p : op + ":" + p;
    }

    /**
     * Each fork's value of percentile {@code p} of kind {@code op}, in fork order (the score alone when JMH kept
     * no raw data); empty when absent.
     */
    List<Double> forks(String op, String p) {
        Metric m = result.secondaryMetrics().get(name(op, p));
        if (m == null) {
            return List.of();
        }
        List<Double> forks = Spread.forkMeans(m);
        return forks.isEmpty() ? List.of(m.score()) : forks;
    }

    /**
     * Percentile {@code p} of every fork's samples together: the largest fork's for {@code max}, JMH's merged
     * distribution's for the others; NaN when the row has no such metric.
     */
    double pooled(String op, String p) {
        if (p.equals("max")) {
            return forks(op, p).stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
        Metric latency = result.secondaryMetrics().get(name(op, "latency"));
        Double value = latency == null ? null : latency.scorePercentiles().get(POOLED.get(p));
        return value == null ? Double.NaN : value;
    }

    /**
     * {@code pooled (fork / fork / fork)}, then {@code , at the harness floor} when it is; blank when the row lacks
     * the percentile.
     */
    String cell(String op, String p) {
        List<Double> forks = forks(op, p);
        if (forks.isEmpty()) {
            return "";
        }
        return Table.score(pooled(op, p)) + " (" + forks.stream().map(Table::score).collect(Collectors.joining(" / "))
                + ")" + (atFloor(op, p) ? ", " + OpenLoopRule.AT_FLOOR : "");
    }

    /** Whether the row has its forks' harness passes. */
    boolean hasHarness() {
        return result.secondaryMetrics().containsKey(name(HARNESS, "p50"));
    }

    /** Whether any of {@code rows} has harness passes; a table of none says {@link OpenLoopRule#NO_FLOOR} once. */
    static boolean anyHarness(List<OpenLoopRow> rows) {
        return rows.stream().anyMatch(OpenLoopRow::hasHarness);
    }

    /**
     * Whether the pooled percentile {@code p} of kind {@code op} is at the floor: within
     * {@link OpenLoopRule#FLOOR_FACTOR} of the pooled same percentile of the forks' harness passes.
     */
    boolean atFloor(String op, String p) {
        return !op.equals(HARNESS) && OpenLoopRule.atFloor(pooled(op, p), pooled(HARNESS, p));
    }

    /** Whether the mean of the forks' own percentile {@code p} of kind {@code op} is at the floor of their harness passes'. */
    boolean forkMeanAtFloor(String op, String p) {
        return !op.equals(HARNESS) && OpenLoopRule.atFloor(forkMean(op, p), forkMean(HARNESS, p));
    }

    /** The mean of the forks' own percentile {@code p} of kind {@code op}; NaN when absent. */
    double forkMean(String op, String p) {
        return forks(op, p).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /**
     * The row's harness cells, one per percentile of {@link #PERCENTILES} as {@link #cell} gives them; the
     * first says {@link OpenLoopRule#NO_FLOOR} when the row has no harness pass.
     */
    List<String> harnessCells() {
        List<String> cells = new ArrayList<>();
        PERCENTILES.forEach(p -> cells.add(cell(HARNESS, p)));
        if (!hasHarness()) {
            cells.set(0, OpenLoopRule.NO_FLOOR);
        }
        return cells;
    }

    /** The rate asked, operations per second: its metric, else the {@code rate} parameter; NaN without either. */
    double offered() {
        Metric m = result.secondaryMetrics().get("offered");
        String rate = result.params().get("rate");
        return m != null ? m.score() : rate != null ? Double.parseDouble(rate) : Double.NaN;
    }

    /**
     * The rate done in each fork, as a cell: {@code 19,990 (19,980 / 20,000)}, or the lowest fork's alone with one
     * fork; then {@code , did not keep up} when it did not, and {@code , 5 censored} when operations were never
     * started.
     */
    String achievedCell() {
        List<Double> forks = forks("", "achieved");
        String low = Table.score(lowestAchieved());
        String rate = forks.size() < 2 ? low
                : low + " (" + forks.stream().map(Table::score).collect(Collectors.joining(" / ")) + ")";
        return rate + (keptUp() ? "" : ", did not keep up") + OpenLoopRule.censoredNote(censored(), censoredInTail());
    }

    /** The harness passes' achieved rate, as {@link #achievedCell()} gives the row's; blank without them. */
    String harnessAchievedCell() {
        List<Double> forks = forks(HARNESS, "achieved");
        double low = forks.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        return forks.isEmpty() ? "" : Table.score(low)
                + (OpenLoopRule.keptUp(offered(), forks, List.of()) ? "" : ", did not keep up");
    }

    /** Operations never started, over all forks. */
    double censored() {
        return forks("", "unfinished").stream().mapToDouble(Double::doubleValue).sum();
    }

    /**
     * Whether the operations never started are in the percentiles: a driver that censors them also reports its
     * spinning ({@code spinCores}) and harness passes; an earlier one left them out.
     */
    boolean censoredInTail() {
        return result.secondaryMetrics().containsKey("spinCores") || hasHarness();
    }

    /** The lowest fork's achieved rate. */
    double lowestAchieved() {
        return forks("", "achieved").stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /** Whether every fork kept up with the rate asked ({@link OpenLoopRule#keptUp}). */
    boolean keptUp() {
        return OpenLoopRule.keptUp(offered(), forks("", "achieved"), forks("", "unfinished"));
    }

    /** {@code did not keep up: 31,000 of 50,000 ops/s, 5 censored}: what a row that did not keep up shows for a ratio. */
    String notKeptUp() {
        return OpenLoopRule.notKeptUp(lowestAchieved(), offered(), censored(), censoredInTail());
    }

    /**
     * Why the ratio of this row's pooled percentile {@code p} of kind {@code op} to {@code base}'s may not be
     * given or judged: either row did not keep up, or either percentile is at its harness floor; empty when it
     * may.
     */
    Optional<String> noRatio(OpenLoopRow base, String op, String p) {
        for (OpenLoopRow r : List.of(this, base)) {
            if (!r.keptUp()) {
                return Optional.of(r.notKeptUp());
            }
        }
        if (atFloor(op, p) || base.atFloor(op, p)) {
            return Optional.of(op + " " + p + " " + OpenLoopRule.AT_FLOOR);
        }
        return Optional.empty();
    }

    /**
     * Samples of one kind a fork needs before its percentile {@code p} ({@code p99}, {@code p99.9}) is judged:
     * {@code 10 / (1 - q)}, so that ten samples lie beyond it (1,000 for p99, 10,000 for p99.9). With fewer,
     * a p99.9 is one of the few largest samples, whatever the store does.
     */
    static long samplesNeeded(String p) {
        double q = Double.parseDouble(p.substring(1)) / 100;
        return Math.round(10 / (1 - q));
    }

    /** Whether every fork has {@link #samplesNeeded} samples of kind {@code op} for percentile {@code p}. */
    boolean enoughSamples(String op, String p) {
        List<Double> counts = forks(op, "count");
        return !counts.isEmpty() && counts.stream().allMatch(c -> c >= samplesNeeded(p));
    }

    /**
     * The verdict of goals on percentiles of kind {@code op}: {@code met} when every fork's percentiles are within
     * their goals, {@code not met} when every fork misses one, otherwise {@code undetermined}. A row that did not
     * keep up gets no verdict; a percentile some fork has too few samples for ({@link #samplesNeeded}), or that is
     * at the harness floor ({@link #atFloor}), is not judged and says so; and a verdict from fewer than
     * {@link #FIRM_FORKS} forks is marked indicative.
     */
    String verdict(String op, Map<String, Double> goals) {
        if (!keptUp()) {
            return "did not keep up: no verdict";
        }
        int forks = forks(op, goals.keySet().iterator().next()).size();
        if (forks == 0) {
            return "";
        }
        List<String> tooFew = goals.keySet().stream().filter(p -> !enoughSamples(op, p)).toList();
        List<String> floor = goals.keySet().stream().filter(p -> !tooFew.contains(p) && atFloor(op, p)).toList();
        List<String> notes = new ArrayList<>();
        if (!tooFew.isEmpty()) {
            notes.add(String.join(", ", tooFew) + ": too few samples (" + tooFew.stream()
                    .map(p -> p + " needs " + Table.score(samplesNeeded(p))).collect(Collectors.joining(", ")) + " "
                    + op + "s per fork)");
        }
        if (!floor.isEmpty()) {
            notes.add(String.join(", ", floor) + ": " + OpenLoopRule.AT_FLOOR);
        }
        if (tooFew.size() + floor.size() == goals.size()) {
            return String.join("; ", notes) + ": no verdict";
        }
        int within = 0;
        for (int f = 0; f < forks; f++) {
            boolean ok = true;
            for (Map.Entry<String, Double> goal : goals.entrySet()) {
                if (tooFew.contains(goal.getKey()) || floor.contains(goal.getKey())) {
                    continue;
                }
                List<Double> values = forks(op, goal.getKey());
                ok &= f < values.size() && values.get(f) <= goal.getValue();
            }
            within += ok ? 1 : 0;
        }
        String verdict = within == forks ? "met" : within == 0 ? "not met" : "undetermined";
        if (forks < FIRM_FORKS) {
            verdict += ", indicative (" + forks + (forks == 1 ? " fork)" : " forks)");
        }
        return notes.isEmpty() ? verdict : verdict + "; " + String.join("; ", notes);
    }
}
