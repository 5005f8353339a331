package io.caskbench.bench.store.workload;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The keys, their visiting order and the value of one benchmark, generated before measurement so that
 * no key formatting or random number generation is timed.
 *
 * <p>Every store sees the same bytes in the same order. All puts of a workload store the same value
 * array; no store under test compresses or deduplicates values, and each copies what it is given.
 */
public final class Workload {

    /** Length of the db_bench / lmdbjava-benchmarks style keys. */
    public static final int DECIMAL_KEY_BYTES = 16;

    private final byte[][] keys;
    private final int[] fillOrder;
    private final int[] readOrder;
    private final byte[] value;
    private final boolean fixedKeySize;

    private Workload(byte[][] keys, int[] fillOrder, int[] readOrder, byte[] value, boolean fixedKeySize) {
        this.keys = keys;
        this.fillOrder = fillOrder;
        this.readOrder = readOrder;
        this.value = value;
        this.fixedKeySize = fixedKeySize;
    }

    /**
     * The db_bench workload: {@code keyCount} keys {@code 0000000000000000} .. as 16-byte zero-padded
     * decimal strings, put and read in the orders of {@code order}, each with the same random
     * {@code valueSize}-byte value.
     */
    public static Workload decimal(int keyCount, int valueSize, KeyOrder order) {
        byte[][] keys = new byte[keyCount][];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = decimalKey(i);
        }
        byte[] value = new byte[valueSize];
        new SplittableRandom(valueSize).nextBytes(value);
        return new Workload(keys, order.fillOrder(keyCount), order.readOrder(keyCount), value, true);
    }

    /**
     * Seed 002's workload: keys {@code object<i>.png} in ascending {@code i}, each with the same
     * Protostuff-serialized {@link ObjectMeta}. The seed read its keys back in the order it wrote them,
     * so this workload does too: it reproduces the seed's figures, it does not measure random reads.
     */
    public static Workload seed(int keyCount) {
        byte[][] keys = new byte[keyCount][];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = ("object" + i + ".png").getBytes(StandardCharsets.UTF_8);
        }
        return new Workload(keys, KeyOrder.SEQUENTIAL.fillOrder(keyCount), KeyOrder.SEQUENTIAL.readOrder(keyCount),
                ObjectMeta.sample(0).toBytes(), false);
    }

    /** {@code index} as a zero-padded 16-digit ASCII decimal. */
    public static byte[] decimalKey(long index) {
        if (index < 0 || index > 9_999_999_999_999_999L) {
            throw new IllegalArgumentException("key index out of range: " + index);
        }
        byte[] key = new byte[DECIMAL_KEY_BYTES];
        long rest = index;
        for (int i = DECIMAL_KEY_BYTES - 1; i >= 0; i--) {
            key[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return key;
    }

    /** Number of distinct keys. */
    public int keyCount() {
        return keys.length;
    }

    /** The key put at {@code position} (0 .. keyCount-1) of a fill. */
    public byte[] fillKey(int position) {
        return keys[fillOrder[position]];
    }

    /** The key read at {@code position} (0 .. keyCount-1) of a pass of reads. */
    public byte[] readKey(int position) {
        return keys[readOrder[position]];
    }

    /** The value every put stores. */
    public byte[] value() {
        return value;
    }

    /** Average key length in bytes, rounded up; the length of every key when {@link #fixedKeySize()}. */
    public int keySize() {
        long total = 0;
        for (byte[] key : keys) {
            total += key.length;
        }
        return (int) ((total + keys.length - 1) / keys.length);
    }

    /** True when all keys have the same length. */
    public boolean fixedKeySize() {
        return fixedKeySize;
    }
}
