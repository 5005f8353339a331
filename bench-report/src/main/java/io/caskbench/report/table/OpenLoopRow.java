package io.caskbench.report.table;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Table;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One open-loop row of a JMH result file, as bench-jmh's open-loop profiler writes it: per fork (one
 * measured iteration each) the latency percentiles {@code p50}, {@code p99}, {@code p99.9}, {@code max} in
 * microseconds, timed from each operation's intended start, per kind of operation ({@code get:p99}) and for
 * all; the distribution {@code latency} (or {@code get:latency}), whose percentiles JMH computes over every
 * fork's samples together; and the rates {@code offered} and {@code achieved}. Immutable.
 */
final class OpenLoopRow {

    /** The percentiles every open-loop row has, in table order. */
    static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9", "max");
    /** A row achieving less than this share of the rate asked, in any fork, did not keep up. */
    static final double KEPT_UP = 0.98;
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

    /** Each fork's value of percentile {@code p} of kind {@code op}, in fork order; empty when absent. */
    List<Double> forks(String op, String p) {
        Metric m = result.secondaryMetrics().get(name(op, p));
        return m == null ? List.of() : Spread.forkMeans(m);
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

    /** {@code pooled (fork / fork / fork)}, or blank when the row lacks the percentile. */
    String cell(String op, String p) {
        List<Double> forks = forks(op, p);
        if (forks.isEmpty()) {
            return "";
        }
        return Table.score(pooled(op, p)) + " (" + forks.stream().map(Table::score).collect(Collectors.joining(" / ")) + ")";
    }

    /** The rate asked, operations per second. */
    double offered() {
        return result.secondaryMetrics().get("offered").score();
    }

    /** The rate done in each fork, as a cell: {@code 19,990 (19,980 / 20,000)}, or the lowest fork's alone with one fork. */
    String achievedCell() {
        List<Double> forks = forks("", "achieved");
        double low = forks.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        return forks.size() < 2 ? Table.score(low)
                : Table.score(low) + " (" + forks.stream().map(Table::score).collect(Collectors.joining(" / ")) + ")";
    }

    /**
     * Whether some fork fell behind: it achieved less than {@link #KEPT_UP} of the rate asked, or left
     * operations unfinished.
     */
    boolean saturated() {
        double offered = offered();
        boolean slow = forks("", "achieved").stream().anyMatch(a -> a < KEPT_UP * offered);
        boolean unfinished = forks("", "unfinished").stream().anyMatch(u -> u > 0);
        return slow || unfinished;
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
     * their goals, {@code not met} when every fork misses one, otherwise {@code undetermined}. A saturated row
     * gets no verdict; a percentile some fork has too few samples for ({@link #samplesNeeded}) is not judged
     * and says so, and a verdict from fewer than {@link #FIRM_FORKS} forks is marked indicative.
     */
    String verdict(String op, Map<String, Double> goals) {
        if (saturated()) {
            return "saturated: no verdict";
        }
        int forks = forks(op, goals.keySet().iterator().next()).size();
        if (forks == 0) {
            return "";
        }
        List<String> tooFew = goals.keySet().stream().filter(p -> !enoughSamples(op, p)).toList();
        String fewNote = tooFew.stream().map(p -> p + " needs " + Table.score(samplesNeeded(p)))
                .collect(Collectors.joining(", ")) + " " + op + "s per fork";
        if (tooFew.size() == goals.size()) {
            return "too few samples (" + fewNote + "): no verdict";
        }
        int within = 0;
        for (int f = 0; f < forks; f++) {
            boolean ok = true;
            for (Map.Entry<String, Double> goal : goals.entrySet()) {
                if (tooFew.contains(goal.getKey())) {
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
        return tooFew.isEmpty() ? verdict : verdict + "; " + String.join(", ", tooFew) + ": too few samples ("
                + fewNote + ")";
    }
}
