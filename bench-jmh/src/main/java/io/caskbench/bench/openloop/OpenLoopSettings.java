package io.caskbench.bench.openloop;

import java.time.Duration;
import java.util.Objects;

/**
 * What an open-loop run drives: how many worker threads, the total arrival rate they share, the mix of
 * operations, and how long it warms up and then measures. Immutable; made by {@link #builder()}.
 *
 * <p>After the measured period, a thread that is still behind keeps working through the operations due in
 * that period for at most {@link #grace()}; what it has not started by then is counted as unfinished
 * rather than waited for, so a saturated run still ends.
 *
 * <p>Each thread parks until a little before each due time and spins from there ({@link SpinAhead});
 * {@link #spinAhead()} caps how long it spins per operation.
 */
public final class OpenLoopSettings {

    /**
     * The default cap on the spin before each due time: above the 50 us timer slack by which Linux wakes a
     * parked thread late and the few microseconds it then takes to run on an idle core; a park later than
     * this waited for a core, which spinning does not shorten.
     */
    public static final Duration DEFAULT_SPIN_AHEAD = Duration.ofNanos(100_000);

    private final int threads;
    private final double rate;
    private final OperationMix mix;
    private final Duration warmup;
    private final Duration measure;
    private final Duration grace;
    private final long seed;
    private final Duration spinAhead;

    private OpenLoopSettings(Builder b) {
        this.threads = b.threads;
        this.rate = b.rate;
        this.mix = b.mix;
        this.warmup = b.warmup;
        this.measure = b.measure;
        this.grace = b.grace == null ? max(measure, Duration.ofSeconds(1)) : b.grace;
        this.seed = b.seed;
        this.spinAhead = b.spinAhead;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * A builder: 1 thread, gets only, no warm-up, a 1 s measured period, seed 1, a spin-ahead of at most
     * {@link #DEFAULT_SPIN_AHEAD}; the rate must be set.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Worker threads. */
    public int threads() {
        return threads;
    }

    /** Operations per second asked of all threads together. */
    public double rate() {
        return rate;
    }

    /** The kinds of operation and their shares. */
    public OperationMix mix() {
        return mix;
    }

    /** The period driven before measuring; its operations are timed but not recorded. */
    public Duration warmup() {
        return warmup;
    }

    /** The measured period: operations due in it are recorded. */
    public Duration measure() {
        return measure;
    }

    /** How long after the measured period a late thread may go on (default: the measured period, at least 1 s). */
    public Duration grace() {
        return grace;
    }

    /** The seed of the threads' draws of operation kinds. */
    public long seed() {
        return seed;
    }

    /** The most a thread spins before each due time (it parks until then); zero: it parks only. */
    public Duration spinAhead() {
        return spinAhead;
    }

    /** Builds {@link OpenLoopSettings}; not thread-safe. */
    public static final class Builder {
        private int threads = 1;
        private double rate = Double.NaN;
        private OperationMix mix = OperationMix.getsOnly();
        private Duration warmup = Duration.ZERO;
        private Duration measure = Duration.ofSeconds(1);
        private Duration grace;
        private long seed = 1;
        private Duration spinAhead = DEFAULT_SPIN_AHEAD;

        private Builder() {
        }

        /** Worker threads, at least 1. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, was " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** Total operations per second over all threads; positive. */
        public Builder rate(double opsPerSecond) {
            if (!(opsPerSecond > 0) || Double.isInfinite(opsPerSecond)) {
                throw new IllegalArgumentException("rate must be positive, was " + opsPerSecond);
            }
            this.rate = opsPerSecond;
            return this;
        }

        /** The mix of operations. */
        public Builder mix(OperationMix mix) {
            this.mix = Objects.requireNonNull(mix, "mix");
            return this;
        }

        /** The warm-up period; zero or more. */
        public Builder warmup(Duration warmup) {
            if (warmup.isNegative()) {
                throw new IllegalArgumentException("warm-up must not be negative, was " + warmup);
            }
            this.warmup = warmup;
            return this;
        }

        /** The measured period; positive. */
        public Builder measure(Duration measure) {
            if (measure.isNegative() || measure.isZero()) {
                throw new IllegalArgumentException("measured period must be positive, was " + measure);
            }
            this.measure = measure;
            return this;
        }

        /** How long a late thread may go on after the measured period; zero or more. */
        public Builder grace(Duration grace) {
            if (grace.isNegative()) {
                throw new IllegalArgumentException("grace must not be negative, was " + grace);
            }
            this.grace = grace;
            return this;
        }

        /** The seed of the operation kinds' draws. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The most a thread spins before each due time; zero parks only (the floor then is the kernel's lateness). */
        public Builder spinAhead(Duration cap) {
            if (cap.isNegative()) {
                throw new IllegalArgumentException("spin-ahead must not be negative, was " + cap);
            }
            this.spinAhead = cap;
            return this;
        }

        /** The settings; fails when no rate was set. */
        public OpenLoopSettings build() {
            if (Double.isNaN(rate)) {
                throw new IllegalStateException("no rate set: an open-loop run needs an arrival rate");
            }
            return new OpenLoopSettings(this);
        }
    }
}
