package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.Units;
import io.caskbench.report.text.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Two runs side by side, benchmark by benchmark, in the spirit of Go's benchstat: old and new score,
 * the change, whether the change is larger than the two runs' combined error, and a verdict.
 *
 * <p>A change counts as real when the two 99.9% confidence intervals do not overlap
 * ({@code |new - old| > errorOld + errorNew}). Direction matters: for throughput a drop is a
 * regression, for time per operation a rise is.
 *
 * @param rows one row per benchmark + mode + parameters, old order first, then added ones
 */
public record Comparison(List<Comparison.Row> rows) {

    /** What happened to one benchmark between the runs. */
    public enum Change {
        /** Better by more than the combined error. */
        IMPROVED,
        /** Worse by more than the combined error. */
        REGRESSED,
        /** The difference is within the combined error. */
        UNCHANGED,
        /** Different, but at least one run has no error estimate, so significance is unknown. */
        UNCERTAIN,
        /** Only in the new run. */
        ADDED,
        /** Only in the old run. */
        REMOVED,
        /** The units of the two runs do not convert into each other. */
        INCOMPARABLE
    }

    /**
     * One benchmark in both runs.
     *
     * @param key benchmark, mode and parameters
     * @param old the old result, or null when added
     * @param now the new result, or null when removed
     * @param newScore the new score in the old unit (NaN when not comparable)
     * @param newError the new error in the old unit (NaN when unknown)
     * @param changePct {@code (new - old) / old * 100} (NaN when not comparable)
     * @param worsePct how much worse the new run is, in percent, direction taken into account (negative when better)
     * @param change the verdict for this row
     */
    public record Row(String key, JmhResult old, JmhResult now, double newScore, double newError,
                      double changePct, double worsePct, Change change) {

        /** Whether the row is a regression that should fail a build with this threshold. */
        public boolean failsAbove(double thresholdPct) {
            return (change == Change.REGRESSED || change == Change.UNCERTAIN) && worsePct > thresholdPct;
        }
    }

    /** Copies the list so the record stays immutable. */
    public Comparison {
        rows = List.copyOf(rows);
    }

    /** Compares two lists of results, matching them by benchmark, mode and parameters. */
    public static Comparison of(List<JmhResult> oldRun, List<JmhResult> newRun) {
        Map<String, JmhResult> news = new LinkedHashMap<>();
        newRun.forEach(r -> news.putIfAbsent(r.key(), r));
        Map<String, JmhResult> olds = new LinkedHashMap<>();
        oldRun.forEach(r -> olds.putIfAbsent(r.key(), r));
        List<Row> rows = new ArrayList<>();
        for (JmhResult o : olds.values()) {
            JmhResult n = news.get(o.key());
            rows.add(n == null ? new Row(o.key(), o, null, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Change.REMOVED)
                    : row(o, n));
        }
        for (JmhResult n : news.values()) {
            if (!olds.containsKey(n.key())) {
                rows.add(new Row(n.key(), null, n, n.primaryMetric().score(), n.primaryMetric().scoreError(),
                        Double.NaN, Double.NaN, Change.ADDED));
            }
        }
        return new Comparison(rows);
    }

    private static Row row(JmhResult o, JmhResult n) {
        Metric om = o.primaryMetric();
        Metric nm = n.primaryMetric();
        OptionalDouble score = Units.convert(nm.score(), nm.scoreUnit(), om.scoreUnit());
        if (score.isEmpty() || om.score() == 0 || !Double.isFinite(om.score())) {
            return new Row(o.key(), o, n, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Change.INCOMPARABLE);
        }
        double ns = score.getAsDouble();
        double ne = nm.hasError() ? Units.convert(nm.scoreError(), nm.scoreUnit(), om.scoreUnit()).orElse(Double.NaN) : Double.NaN;
        double changePct = (ns - om.score()) / om.score() * 100;
        double worsePct = o.higherIsBetter() ? -changePct : changePct;
        Change change;
        if (!om.hasError() || !Double.isFinite(ne)) {
            change = ns == om.score() ? Change.UNCHANGED : Change.UNCERTAIN;
        } else if (Math.abs(ns - om.score()) <= om.scoreError() + ne) {
            change = Change.UNCHANGED;
        } else {
            change = worsePct > 0 ? Change.REGRESSED : Change.IMPROVED;
        }
        return new Row(o.key(), o, n, ns, ne, changePct, worsePct, change);
    }

    /** Rows with the given verdict. */
    public List<Row> with(Change change) {
        return rows.stream().filter(r -> r.change() == change).toList();
    }

    /** How many benchmarks of the old run the new run has too (whether or not their units convert). */
    public int matched() {
        return (int) rows.stream().filter(r -> r.old() != null && r.now() != null).count();
    }

    /** How many benchmarks the old run has: what a comparison can at most cover. */
    public int baseline() {
        return (int) rows.stream().filter(r -> r.old() != null).count();
    }

    /** The share of the old run's benchmarks found in the new run, in percent; 0 when the old run is empty. */
    public double matchedPct() {
        return baseline() == 0 ? 0 : matched() * 100.0 / baseline();
    }

    /**
     * Why this comparison cannot guard anything, if the runs share less than {@code minPct} percent of the
     * old run's benchmarks: two runs of different benchmarks would otherwise pass with every row "added" or
     * "removed".
     *
     * @param minPct the least share of the old run's benchmarks the new run must have
     * @return the message, or empty when enough benchmarks match
     */
    public Optional<String> tooFewMatched(double minPct) {
        if (baseline() > 0 && matchedPct() >= minPct) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "FAIL: only %d of the old run's %d benchmarks are in the new run "
                + "(%.1f%%; --min-match asks for %.1f%%): the runs measured different things, so this comparison "
                + "cannot show a change", matched(), baseline(), matchedPct(), minPct));
    }

    /** Rows that fail a build with this threshold (regressed, or uncertain, by more than it). */
    public List<Row> failing(double thresholdPct) {
        return rows.stream().filter(r -> r.failsAbove(thresholdPct)).toList();
    }

    /** The aligned table, one line per benchmark. */
    public String table() {
        List<String[]> t = new ArrayList<>();
        t.add(new String[] {"Benchmark", "Params", "Mode", "Unit", "Old", "±", "New", "±", "Change", "Beyond error", "Verdict"});
        for (Row r : rows) {
            JmhResult any = r.old() != null ? r.old() : r.now();
            String oldScore = r.old() == null ? "" : Units.format(r.old().primaryMetric().score());
            String oldErr = r.old() == null || !r.old().primaryMetric().hasError() ? "" : Units.format(r.old().primaryMetric().scoreError());
            String newScore = r.now() == null ? "" : Units.format(r.newScore());
            String newErr = r.now() == null || !Double.isFinite(r.newError()) ? "" : Units.format(r.newError());
            String change = Double.isNaN(r.changePct()) ? "" : String.format(Locale.ROOT, "%+.1f%%", r.changePct());
            String beyond = switch (r.change()) {
                case IMPROVED, REGRESSED -> "yes";
                case UNCHANGED -> "no";
                case UNCERTAIN -> "? (no error)";
                default -> "";
            };
            t.add(new String[] {any.shortName(), any.paramsLabel(), any.mode(), any.primaryMetric().scoreUnit(),
                oldScore, oldErr, newScore, newErr, change, beyond, r.change().name().toLowerCase(Locale.ROOT)});
        }
        return TextTable.format(t, 4, 5, 6, 7, 8);
    }

    /**
     * One line that says what happened overall, and, with a threshold, whether the new run passes.
     *
     * @param failAbovePct the regression threshold in percent, if the caller set one
     */
    public String verdict(Optional<Double> failAbovePct) {
        List<Row> regressed = with(Change.REGRESSED);
        StringBuilder sb = new StringBuilder("verdict: ");
        sb.append(regressed.size()).append(regressed.size() == 1 ? " regression" : " regressions").append(", ")
                .append(with(Change.IMPROVED).size()).append(" improved, ")
                .append(with(Change.UNCHANGED).size()).append(" unchanged within error, ")
                .append(with(Change.UNCERTAIN).size()).append(" without error estimate, ")
                .append(with(Change.ADDED).size()).append(" added, ")
                .append(with(Change.REMOVED).size()).append(" removed");
        if (!with(Change.INCOMPARABLE).isEmpty()) {
            sb.append(", ").append(with(Change.INCOMPARABLE).size()).append(" incomparable");
        }
        rows.stream().filter(r -> r.change() == Change.REGRESSED)
                .max((a, b) -> Double.compare(a.worsePct(), b.worsePct()))
                .ifPresent(w -> sb.append(String.format(Locale.ROOT, "; worst: %s %s %.1f%% worse",
                        (w.old().shortName()), w.old().params().isEmpty() ? "" : "{" + w.old().paramsLabel() + "}", w.worsePct())));
        if (failAbovePct.isPresent()) {
            List<Row> failing = failing(failAbovePct.get());
            sb.append(String.format(Locale.ROOT, "%n%s: %d benchmark%s worse than %.1f%% (--fail-above)",
                    failing.isEmpty() ? "PASS" : "FAIL", failing.size(), failing.size() == 1 ? "" : "s", failAbovePct.get()));
        }
        return sb.toString();
    }
}
