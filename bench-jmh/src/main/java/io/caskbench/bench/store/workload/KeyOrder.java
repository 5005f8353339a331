package io.caskbench.bench.store.workload;

import java.util.SplittableRandom;

/** The order in which a workload visits its keys. */
public enum KeyOrder {
    /** Ascending key order: the friendliest case for sorted stores (LSM trees, B-trees). */
    SEQUENTIAL,
    /** A fixed pseudo-random permutation: every key once per pass, no locality. */
    RANDOM;

    /** Seed of the permutation, fixed so every store and every run sees the same order. */
    private static final long SEED = 0x5EED_0002L;

    /** Returns the visiting order of {@code n} keys as key indexes. */
    public int[] positions(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (this == RANDOM) {
            SplittableRandom random = new SplittableRandom(SEED);
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        return order;
    }
}
