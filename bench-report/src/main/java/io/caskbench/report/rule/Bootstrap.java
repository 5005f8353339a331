package io.caskbench.report.rule;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A 95% interval for the ratio of two results' means, from a bootstrap over forks.
 *
 * <p>Each JMH fork is a separate JVM; forks differ more than the iterations within one. A resample draws
 * as many forks as each side measured, with replacement, and within each drawn fork as many of its
 * iterations, with replacement; the resampled ratio is the mean of those fork means on one side over the
 * same on the other. With as few as five forks the plain percentile interval is too narrow, so the
 * percentiles are widened as Hesterberg's expanded percentile bootstrap does: the tail share is the one
 * a Student t interval with {@code n - 1} degrees of freedom and a {@code sqrt(n / (n - 1))} correction
 * would leave. The generator is seeded and the logarithms are {@link StrictMath}'s, so the same results give
 * the same interval on every JVM: the published blocks are regenerated and compared in the build.
 */
final class Bootstrap {

    /** Resamples per interval: enough for the expanded tails at five forks (about 0.1% each side). */
    static final int RESAMPLES = 10_000;
    /** The fixed seed: the report is a function of the run's JSON. */
    static final long SEED = 0x5EEDCA5CL;

    /** Two-sided 97.5% quantiles of Student's t by degrees of freedom 1 to 30. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    private Bootstrap() {
    }

    /**
     * The interval of {@code mean(a) / mean(b)}, each side given as forks of iterations.
     *
     * @return {@code {low, high}}, or NaNs when either side has fewer than two forks with iterations
     */
    static double[] ratio(List<List<Double>> a, List<List<Double>> b) {
        return ratio(a, b, SEED);
    }

    /** The interval of one result's mean, given as forks of iterations (a time held to a goal, say). */
    static double[] mean(List<List<Double>> a) {
        return interval(forks(a), null, SEED);
    }

    /** As {@link #ratio(List, List)} with the generator's seed given (tests vary it). */
    static double[] ratio(List<List<Double>> a, List<List<Double>> b, long seed) {
        return interval(forks(a), forks(b), seed);
    }

    /** The interval of {@code mean(fa) / mean(fb)}, or of {@code mean(fa)} alone when {@code fb} is null. */
    private static double[] interval(double[][] fa, double[][] fb, long seed) {
        int fewest = fb == null ? fa.length : Math.min(fa.length, fb.length);
        if (fewest < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] logs = new double[RESAMPLES];
        int kept = 0;
        for (int i = 0; i < RESAMPLES; i++) {
            double num = resampledMean(fa, random);
            double den = fb == null ? 1 : resampledMean(fb, random);
            if (num > 0 && den > 0) {
                logs[kept++] = StrictMath.log(num / den);
            }
        }
        if (kept < RESAMPLES / 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double[] sorted = Arrays.copyOf(logs, kept);
        Arrays.sort(sorted);
        double tail = tailShare(fewest);
        return new double[] {StrictMath.exp(quantile(sorted, tail)), StrictMath.exp(quantile(sorted, 1 - tail))};
    }

    /** The share left out on each side: {@code Phi(-sqrt(n / (n - 1)) * t(0.975, n - 1))}. */
    static double tailShare(int forks) {
        double t = forks - 1 <= T975.length ? T975[forks - 2] : 1.96;
        return normalTail(StrictMath.sqrt(forks / (forks - 1.0)) * t);
    }

    private static double[][] forks(List<List<Double>> raw) {
        return raw.stream().filter(f -> f != null && !f.isEmpty())
                .map(f -> f.stream().mapToDouble(Double::doubleValue).toArray()).toArray(double[][]::new);
    }

    private static double resampledMean(double[][] forks, SplittableRandom random) {
        double sum = 0;
        for (int f = 0; f < forks.length; f++) {
            double[] fork = forks[random.nextInt(forks.length)];
            double forkSum = 0;
            for (int i = 0; i < fork.length; i++) {
                forkSum += fork[random.nextInt(fork.length)];
            }
            sum += forkSum / fork.length;
        }
        return sum / forks.length;
    }

    /** The {@code p} quantile of sorted values, interpolated between neighbours. */
    private static double quantile(double[] sorted, double p) {
        double pos = p * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    /** {@code P(Z > z)} for a standard normal Z (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
    static double normalTail(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                * StrictMath.exp(-x * x);
        return z >= 0 ? erfc / 2 : 1 - erfc / 2;
    }
}
