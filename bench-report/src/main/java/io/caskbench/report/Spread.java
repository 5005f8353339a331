package io.caskbench.report;

import java.util.List;
import java.util.Locale;

/**
 * A ratio of two results with its run-to-run spread, and whether it is a win.
 *
 * <p>Each JMH fork is a separate run of the JVM; its mean over the measured iterations is one sample of
 * what a user would see from one run. The spread of a ratio {@code a / b} is the range between the
 * smallest fork mean of {@code a} over the largest of {@code b}, and the largest of {@code a} over the
 * smallest of {@code b}: the ratios the runs could have shown. A ratio is called a win or a loss only
 * when that whole range lies on one side of 1; otherwise it is within the spread. One fork has no
 * spread, so nothing measured with one fork is ever called a win.
 *
 * @param value {@code a / b} of the scores JMH reports (the mean over all forks)
 * @param low the smallest ratio the forks allow; NaN without at least two forks on each side
 * @param high the largest ratio the forks allow; NaN without at least two forks on each side
 * @param forks the smaller fork count of the two results
 */
public record Spread(double value, double low, double high, int forks) {

    /** The reading of a ratio against 1. */
    public enum Verdict {
        /** The numerator is better in every pairing of runs. */
        WIN,
        /** The numerator is worse in every pairing of runs. */
        LOSS,
        /** The runs disagree, or there was only one fork: no side is called better. */
        WITHIN_SPREAD;

        /** Lower-case words for tables and sentences. */
        public String words() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /** The ratio of {@code a}'s score to {@code b}'s, both in the same unit; NaN parts when either is missing. */
    public static Spread of(JmhResult a, JmhResult b) {
        return a == null || b == null ? of((Metric) null, null) : of(a.primaryMetric(), b.primaryMetric());
    }

    /** The ratio of two metrics (a secondary metric such as a per-iteration median, say). */
    public static Spread of(Metric a, Metric b) {
        if (a == null || b == null || b.score() <= 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double[] ra = forkRange(a);
        double[] rb = forkRange(b);
        int forks = Math.min(forkMeans(a).size(), forkMeans(b).size());
        double value = a.score() / b.score();
        if (forks < 2 || rb[0] <= 0) {
            return new Spread(value, Double.NaN, Double.NaN, forks);
        }
        return new Spread(value, ra[0] / rb[1], ra[1] / rb[0], forks);
    }

    /** The mean of each fork's measured iterations, in fork order; empty when JMH kept no raw data. */
    public static List<Double> forkMeans(JmhResult r) {
        return forkMeans(r.primaryMetric());
    }

    /** The mean of a metric's fork means, or its score when JMH kept no raw data. */
    static double forkMean(Metric m) {
        List<Double> forks = forkMeans(m);
        return forks.isEmpty() ? m.score() : forks.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** The mean of a metric's fork means, then their range in brackets when there are two forks or more. */
    static String withForks(Metric m) {
        List<Double> forks = forkMeans(m);
        String mean = Table.score(forkMean(m));
        if (forks.size() < 2) {
            return mean;
        }
        double min = forks.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double max = forks.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return mean + " (" + Table.score(min) + "-" + Table.score(max) + ")";
    }

    /** The mean of each fork's measured iterations of a metric, in fork order; empty without raw data. */
    public static List<Double> forkMeans(Metric m) {
        return m.rawData().stream().filter(f -> !f.isEmpty())
                .map(f -> f.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN)).toList();
    }

    /**
     * The range of the fork means as a fraction of the score ({@code (max - min) / score}), or NaN with
     * fewer than two forks: how far apart whole runs of this row came out.
     */
    public static double relativeRange(JmhResult r) {
        List<Double> means = forkMeans(r);
        if (means.size() < 2) {
            return Double.NaN;
        }
        double[] range = forkRange(r.primaryMetric());
        return (range[1] - range[0]) / r.primaryMetric().score();
    }

    private static double[] forkRange(Metric m) {
        List<Double> means = forkMeans(m);
        double min = means.stream().mapToDouble(Double::doubleValue).min().orElse(m.score());
        double max = means.stream().mapToDouble(Double::doubleValue).max().orElse(m.score());
        return new double[] {min, max};
    }

    /** Whether the ratio has a spread (two forks or more on each side). */
    public boolean hasSpread() {
        return !Double.isNaN(low);
    }

    /**
     * Win, loss or within the spread, for a score where higher is better when {@code higherIsBetter}
     * (throughput); for time per operation a ratio below 1 is the win.
     */
    public Verdict verdict(boolean higherIsBetter) {
        if (!hasSpread()) {
            return Verdict.WITHIN_SPREAD;
        }
        if (low > 1) {
            return higherIsBetter ? Verdict.WIN : Verdict.LOSS;
        }
        if (high < 1) {
            return higherIsBetter ? Verdict.LOSS : Verdict.WIN;
        }
        return Verdict.WITHIN_SPREAD;
    }

    /** {@code 2.91 (2.70-3.10)}, {@code 2.91 (1 fork)}, or blank when the ratio is missing. */
    public String cell() {
        if (Double.isNaN(value)) {
            return "";
        }
        String ratio = String.format(Locale.ROOT, "%.2f", value);
        if (hasSpread()) {
            return String.format(Locale.ROOT, "%s (%.2f-%.2f)", ratio, low, high);
        }
        return forks == 0 ? ratio : ratio + " (" + forks + " fork" + (forks == 1 ? "" : "s") + ")";
    }
}
