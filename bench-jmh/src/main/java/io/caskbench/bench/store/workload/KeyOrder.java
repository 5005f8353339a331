package io.caskbench.bench.store.workload;

import java.util.SplittableRandom;

/**
 * The order in which a workload puts its keys, and the order in which it reads them back.
 *
 * <p>The two orders are separate on purpose. BitCask appends records in arrival order, so reading keys
 * in the order they were written walks its log front to back, however random that order looks to a
 * sorted store. A random read must therefore visit the keys in a permutation independent of the fill.
 */
public enum KeyOrder {
    /** Ascending key order for the fill and for the reads: sequential for sorted stores and for a log. */
    SEQUENTIAL,
    /** The fill in one fixed pseudo-random permutation, the reads in another, independent one. */
    RANDOM;

    /** Seed of the fill permutation, fixed so every store and every run sees the same order. */
    private static final long FILL_SEED = 0x5EED_0002L;
    /** Seed of the read permutation; any seed but the fill's gives an independent order. */
    private static final long READ_SEED = 0x0BAD_5EEDL;

    /** The order keys are put in, as key indexes: each of {@code 0 .. n-1} once. */
    public int[] fillOrder(int n) {
        return this == RANDOM ? shuffled(n, FILL_SEED) : ascending(n);
    }

    /** The order keys are read in, as key indexes: for RANDOM independent of {@link #fillOrder}. */
    public int[] readOrder(int n) {
        return this == RANDOM ? shuffled(n, READ_SEED) : ascending(n);
    }

    private static int[] ascending(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }

    private static int[] shuffled(int n, long seed) {
        int[] order = ascending(n);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }
}
