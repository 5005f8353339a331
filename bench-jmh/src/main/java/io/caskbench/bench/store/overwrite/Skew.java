package io.caskbench.bench.store.overwrite;

import java.util.SplittableRandom;

/** How the overwritten keys are drawn from the key space. */
public enum Skew {
    /** Every key equally often. */
    UNIFORM,
    /** Zipfian with {@link Zipfian#DEFAULT_THETA}: a hot set overwritten far more often than the rest. */
    ZIPFIAN;

    /** Draws key indexes; thread-safe, each caller brings its own random source. */
    @FunctionalInterface
    public interface KeyDraw {
        /** The next key index in {@code [0, keys)}. */
        long next(SplittableRandom random);
    }

    /** A draw over {@code keys} keys with this skew. */
    public KeyDraw over(long keys) {
        if (this == UNIFORM) {
            return random -> random.nextLong(keys);
        }
        Zipfian zipfian = new Zipfian(keys, Zipfian.DEFAULT_THETA);
        return zipfian::next;
    }
}
