package io.caskbench.bitcask.merge;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>Whether an automatic merge is due: when the dead bytes reach a count, or a share of all data
 * bytes. Also with one segment, the active one: a merge seals it and copies its live records, and a
 * store smaller than a segment would otherwise pile up garbage until its segment is full.
 */
public final class MergePolicy {

    /** Final. */
    private final long deadBytes;
    /** Final. */
    private final double deadRatio;

    /** A policy that merges at {@code deadBytes} dead bytes, or at a {@code deadRatio} share of the data. */
    public MergePolicy(long deadBytes, double deadRatio) {
        this.deadBytes = deadBytes;
        this.deadRatio = deadRatio;
    }

    /** True when a store with these figures should merge now. */
    public boolean due(long dead, double ratio) {
        return dead >= deadBytes || (dead > 0 && ratio >= deadRatio);
    }
}
