package io.caskbench.bench.store.overwrite;

import io.caskbench.bench.openloop.OpType;
import io.caskbench.bench.openloop.Operation;
import java.util.SplittableRandom;

/**
 * The overwrite load's operations on one store: a put writes a fresh value under a key drawn with the
 * run's skew, a get reads a drawn key, which must be found, and sums its bytes.
 *
 * <p>Keys are {@value #KEY_BYTES} ASCII digits of the key's index, so every key has the same size. Values
 * are random bytes (incompressible), each put's first eight bytes a new counter so no two puts write the
 * same value. Each worker thread has its own key buffer, value buffer and random source, indexed by the
 * driver's thread number; a thread's calls never overlap.
 */
public final class OverwriteOps implements Operation {

    /** Bytes of every key. */
    public static final int KEY_BYTES = 16;

    private final OverwriteTarget target;
    private final Skew.KeyDraw draw;
    private final byte[][] keys;
    private final byte[][] values;
    private final SplittableRandom[] randoms;
    /** Per thread: puts made, the counter written into each value; touched by its thread only. */
    private final long[] counters;

    /**
     * Operations on {@code target} over {@code keyCount} keys with {@code valueBytes}-byte values, for up to
     * {@code threads} threads, seeded by {@code seed}.
     */
    public OverwriteOps(OverwriteTarget target, long keyCount, Skew skew, int valueBytes, int threads, long seed) {
        if (valueBytes < Long.BYTES) {
            throw new IllegalArgumentException("values must hold a counter: at least 8 bytes, was " + valueBytes);
        }
        this.target = target;
        this.draw = skew.over(keyCount);
        this.keys = new byte[threads][KEY_BYTES];
        this.values = new byte[threads][valueBytes];
        this.randoms = new SplittableRandom[threads];
        this.counters = new long[threads];
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int t = 0; t < threads; t++) {
            randoms[t] = seeds.split();
            randoms[t].nextBytes(values[t]);
        }
    }

    /** Writes {@code index} as {@value #KEY_BYTES} zero-padded decimal digits into {@code key}. */
    static void format(long index, byte[] key) {
        long v = index;
        for (int i = KEY_BYTES - 1; i >= 0; i--) {
            key[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
    }

    /** Writes every key once, in index order, from thread slot 0: the store's state before the run. */
    public void fill(long keyCount) {
        for (long i = 0; i < keyCount; i++) {
            put(0, i);
        }
    }

    @Override
    public long run(int thread, OpType type) {
        long index = draw.next(randoms[thread]);
        if (type == OpType.PUT) {
            put(thread, index);
            return 0;
        }
        byte[] key = keys[thread];
        format(index, key);
        byte[] value = target.get(key);
        if (value == null) {
            throw new IllegalStateException("key " + index + " was written but is not found");
        }
        long sum = 0;
        for (byte b : value) {
            sum += b;
        }
        return sum;
    }

    private void put(int thread, long index) {
        byte[] key = keys[thread];
        byte[] value = values[thread];
        format(index, key);
        long c = ++counters[thread];
        for (int i = 0; i < Long.BYTES; i++) {
            value[i] = (byte) (c >>> (8 * i));
        }
        target.put(key, value);
    }
}
