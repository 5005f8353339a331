package io.caskbench.bench.openloop;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The share of puts among the driven operations, such as 95% get and 5% put. Each operation's kind is drawn
 * independently from its thread's seeded random source, so the kinds do not march in step across threads.
 */
public final class OperationMix {

    private final double putShare;

    private OperationMix(double putShare) {
        if (!(putShare >= 0 && putShare <= 1)) {
            throw new IllegalArgumentException("put share must be within 0..1, was " + putShare);
        }
        this.putShare = putShare;
    }

    /** A mix with this share of puts (0..1), the rest gets. */
    public static OperationMix withPutShare(double putShare) {
        return new OperationMix(putShare);
    }

    /** Gets only. */
    public static OperationMix getsOnly() {
        return new OperationMix(0);
    }

    /** Puts only. */
    public static OperationMix putsOnly() {
        return new OperationMix(1);
    }

    /** The share of puts, 0..1. */
    public double putShare() {
        return putShare;
    }

    /** The kinds this mix can draw. */
    public Set<OpType> types() {
        Set<OpType> types = EnumSet.noneOf(OpType.class);
        if (putShare < 1) {
            types.add(OpType.GET);
        }
        if (putShare > 0) {
            types.add(OpType.PUT);
        }
        return types;
    }

    /** The kind of the next operation, drawn from {@code random} (a mix of one kind draws nothing). */
    OpType next(SplittableRandom random) {
        if (putShare == 0) {
            return OpType.GET;
        }
        if (putShare == 1) {
            return OpType.PUT;
        }
        return random.nextDouble() < putShare ? OpType.PUT : OpType.GET;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.0f%% get, %.0f%% put", 100 * (1 - putShare), 100 * putShare);
    }
}
