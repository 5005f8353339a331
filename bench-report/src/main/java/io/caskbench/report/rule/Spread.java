package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.text.Table;
import java.util.List;
import java.util.Locale;

/**
 * A ratio of two results with its 95% interval from a bootstrap over forks, and its reading.
 *
 * <p>Each JMH fork is a separate run of the JVM, and its iterations are measurements within that run;
 * {@link Bootstrap} resamples both levels to give the interval of {@code a / b}. A ratio is called a win
 * or a loss only when its whole interval lies on one side of 1; otherwise it is undetermined. One fork has
 * no interval, so nothing measured with one fork is ever called a win. A published verdict needs at least
 * {@link #PUBLISHED_FORKS} forks on each side; with fewer it is marked indicative.
 *
 * @param value {@code a / b} of the scores JMH reports (the mean over all forks)
 * @param low the interval's lower end; NaN without at least two forks on each side
 * @param high the interval's upper end; NaN without at least two forks on each side
 * @param forks the smaller fork count of the two results
 */
public record Spread(double value, double low, double high, int forks) {

    /** The fewest forks per side whose verdicts are published as such rather than as indicative. */
    public static final int PUBLISHED_FORKS = 5;

    /** The reading of a ratio against 1. */
    public enum Verdict {
        /** The numerator is better: the whole interval is on its side of 1. */
        WIN,
        /** The numerator is worse: the whole interval is on the other side of 1. */
        LOSS,
        /** The interval holds 1, or there was only one fork: no side is called better. */
        UNDETERMINED;

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
        int forks = Math.min(forkMeans(a).size(), forkMeans(b).size());
        double value = a.score() / b.score();
        if (forks < 2) {
            return new Spread(value, Double.NaN, Double.NaN, forks);
        }
        double[] interval = Bootstrap.ratio(a.rawData(), b.rawData());
        return new Spread(value, interval[0], interval[1], forks);
    }

    /**
     * One metric's mean with its 95% bootstrap interval (no ratio: {@code value} is the score itself), for a
     * figure held to an absolute goal such as a time in milliseconds.
     */
    public static Spread ofMean(Metric m) {
        int forks = forkMeans(m).size();
        double[] interval = forks < 2 ? new double[] {Double.NaN, Double.NaN} : Bootstrap.mean(m.rawData());
        return new Spread(m.score(), interval[0], interval[1], forks);
    }

    /** The mean of each fork's measured iterations, in fork order; empty when JMH kept no raw data. */
    public static List<Double> forkMeans(JmhResult r) {
        return forkMeans(r.primaryMetric());
    }

    /** The mean of a metric's fork means, or its score when JMH kept no raw data. */
    public static double forkMean(Metric m) {
        List<Double> forks = forkMeans(m);
        return forks.isEmpty() ? m.score() : forks.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** The mean of a metric's fork means, then their range in brackets when there are two forks or more. */
    public static String withForks(Metric m) {
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

    /** Whether the ratio has an interval (two forks or more on each side). */
    public boolean hasSpread() {
        return !Double.isNaN(low);
    }

    /** Whether a verdict on this ratio rests on fewer than {@link #PUBLISHED_FORKS} forks. */
    public boolean indicative() {
        return forks < PUBLISHED_FORKS;
    }

    /**
     * The verdict in words for a table: {@code win}, {@code loss} or {@code undetermined}, followed by
     * {@code (indicative, 3 forks)} when it rests on too few forks to publish as such.
     */
    public String reading(boolean higherIsBetter) {
        return verdict(higherIsBetter).words() + indicativeNote();
    }

    /** {@code " (indicative, 3 forks)"} below {@link #PUBLISHED_FORKS} forks, else empty. */
    public String indicativeNote() {
        return indicative() && !Double.isNaN(value)
                ? " (indicative, " + forks + " fork" + (forks == 1 ? "" : "s") + ")" : "";
    }

    /**
     * Win, loss or undetermined, for a score where higher is better when {@code higherIsBetter}
     * (throughput); for time per operation a ratio below 1 is the win.
     */
    public Verdict verdict(boolean higherIsBetter) {
        if (!hasSpread()) {
            return Verdict.UNDETERMINED;
        }
        if (low > 1) {
            return higherIsBetter ? Verdict.WIN : Verdict.LOSS;
        }
        if (high < 1) {
            return higherIsBetter ? Verdict.LOSS : Verdict.WIN;
        }
        return Verdict.UNDETERMINED;
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
