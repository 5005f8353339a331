package io.caskbench.shm;

/**
 * The position generator every random-write benchmark uses, Java and C alike (region_bench.c has the
 * same three shifts), so that both sides do identical work and PrngBench can measure its cost alone.
 *
 * <p>Marsaglia's xorshift32: three shifts and three xors, a loop-carried chain of about six cycles.
 * The seed used {@code java.util.Random} and libc {@code rand()}, whose cost hid inside its numbers.
 */
public final class XorShift {

    /** A non-zero start value; xorshift never leaves zero once there. */
    public static final int SEED = 0x2545F491;

    private XorShift() {
    }

    /** The next state after {@code x}; use {@code next & (size - 1)} as a position. */
    public static int next(int x) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return x;
    }
}
