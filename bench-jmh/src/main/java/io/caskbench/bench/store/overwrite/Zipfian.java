package io.caskbench.bench.store.overwrite;

import java.util.SplittableRandom;

/**
 * Draws key indexes in {@code [0, n)} with a Zipfian skew: rank {@code r} (0 the hottest) is drawn with
 * probability proportional to {@code 1 / (r + 1)^theta}, by the closed-form approximation of Gray et al.,
 * "Quickly generating billion-record synthetic databases" (SIGMOD 1994), as YCSB does.
 *
 * <p>Ranks are spread over the key space by multiplying with a constant coprime to {@code n} (a bijection
 * modulo {@code n}), so the hot keys are not the first ones written and land in different segments.
 * Immutable and thread-safe: the caller brings its own random source, so a seeded source gives a
 * reproducible sequence.
 */
public final class Zipfian {

    /** YCSB's default skew. */
    public static final double DEFAULT_THETA = 0.99;
    /** The multiplier that scatters ranks; a prime near 2^40, bumped when it shares a factor with n. */
    private static final long SCATTER = 1_099_511_627_791L;

    private final long n;
    private final double theta;
    private final double zetan;
    private final double alpha;
    private final double eta;
    private final double halfPowTheta;
    private final long scatter;

    /** A generator over {@code n} keys with skew {@code theta} in (0, 1). */
    public Zipfian(long n, double theta) {
        if (n < 2 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a Zipfian draw needs 2 to 2^31-1 keys, was " + n);
        }
        if (!(theta > 0 && theta < 1)) {
            throw new IllegalArgumentException("theta must be in (0, 1), was " + theta);
        }
        this.n = n;
        this.theta = theta;
        this.zetan = zeta(n, theta);
        double zeta2 = zeta(2, theta);
        this.alpha = 1.0 / (1.0 - theta);
        this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
        this.halfPowTheta = 1 + Math.pow(0.5, theta);
        long s = SCATTER % n;
        while (s == 0 || gcd(s, n) != 1) {
            s = (s + 1) % n;
        }
        this.scatter = s;
    }

    /** The rank of the next draw, 0 the most frequent, before scattering over the key space. */
    public long nextRank(SplittableRandom random) {
        double u = random.nextDouble();
        double uz = u * zetan;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < halfPowTheta) {
            return 1;
        }
        long rank = (long) (n * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(rank, n - 1);
    }

    /** The key index of the next draw: its rank scattered over {@code [0, n)}. */
    public long next(SplittableRandom random) {
        return keyOf(nextRank(random));
    }

    /** The key index that rank {@code rank} maps to; distinct ranks map to distinct keys. */
    public long keyOf(long rank) {
        // rank and scatter are below n < 2^31, so their product cannot overflow.
        return rank * scatter % n;
    }

    /** Keys drawn from. */
    public long keys() {
        return n;
    }

    /** The skew. */
    public double theta() {
        return theta;
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1.0 / Math.pow(i, theta);
        }
        return sum;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
