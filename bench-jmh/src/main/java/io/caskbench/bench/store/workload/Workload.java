package io.caskbench.bench.store.workload;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The keys, their fill and read orders and the value of one benchmark, generated before measurement so
 * that no key formatting or random number generation is timed.
 *
 * <p>Fixed-size keys are laid out in two contiguous slabs, one in fill order and one in read order, and
 * copied into a caller's reused buffer: fetching the next key reads the slab front to back, so it costs a
 * few nanoseconds and no cache miss, far below the cheapest store. (A million separate key arrays reached
 * through an index array cost a cache miss or two per operation, which pulled every ratio toward 1.) The
 * harness-only benchmark row measures what is left. Every store copies the key it is given, so reusing
 * the buffer is safe (see {@code StoreAdapter}).
 *
 * <p>Every store sees the same bytes in the same order. All puts of a workload store the same value
 * array; no store under test compresses or deduplicates values, and each copies what it is given.
 */
public final class Workload {

    /** Length of the db_bench / lmdbjava-benchmarks style keys. */
    public static final int DECIMAL_KEY_BYTES = 16;

    private final int keyCount;
    private final int keySize;
    private final boolean fixedKeySize;
    private final byte[] value;
    /** Fixed-size keys, {@code keySize} bytes each, in fill order; null for variable-size keys. */
    private final byte[] fillSlab;
    /** Fixed-size keys in read order; null for variable-size keys. */
    private final byte[] readSlab;
    /** Variable-size keys in fill order; null for fixed-size keys. */
    private final byte[][] fillKeys;
    /** Variable-size keys in read order; null for fixed-size keys. */
    private final byte[][] readKeys;

    private Workload(byte[][] keys, int[] fillOrder, int[] readOrder, byte[] value, boolean fixedKeySize) {
        this.keyCount = keys.length;
        this.value = value;
        this.fixedKeySize = fixedKeySize;
        long total = 0;
        for (byte[] key : keys) {
            total += key.length;
        }
        this.keySize = (int) ((total + keys.length - 1) / keys.length);
        if (fixedKeySize) {
            fillSlab = slab(keys, fillOrder, keySize);
            readSlab = slab(keys, readOrder, keySize);
            fillKeys = null;
            readKeys = null;
        } else {
            fillSlab = null;
            readSlab = null;
            fillKeys = reordered(keys, fillOrder);
            readKeys = reordered(keys, readOrder);
        }
    }

    private static byte[] slab(byte[][] keys, int[] order, int keySize) {
        long bytes = (long) keys.length * keySize;
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(keys.length + " keys of " + keySize + " bytes do not fit one slab");
        }
        byte[] slab = new byte[(int) bytes];
        for (int i = 0; i < order.length; i++) {
            System.arraycopy(keys[order[i]], 0, slab, i * keySize, keySize);
        }
        return slab;
    }

    private static byte[][] reordered(byte[][] keys, int[] order) {
        byte[][] out = new byte[keys.length][];
        for (int i = 0; i < order.length; i++) {
            out[i] = keys[order[i]];
        }
        return out;
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
     * The reference experiment's workload: keys {@code object<i>.png} in ascending {@code i}, each with the same
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
        return keyCount;
    }

    /**
     * A buffer for {@link #fillKey} and {@link #readKey}; each thread needs its own. Variable-size keys
     * are returned as they are, so for them this is an empty array that is never written.
     */
    public byte[] keyBuffer() {
        return new byte[fixedKeySize ? keySize : 0];
    }

    /**
     * The key put at {@code position} (0 .. keyCount-1) of a fill: copied into {@code buffer} (from
     * {@link #keyBuffer()}) and returned, or for variable-size keys the key array itself.
     */
    public byte[] fillKey(int position, byte[] buffer) {
        return key(fillSlab, fillKeys, position, buffer);
    }

    /** The key read at {@code position} (0 .. keyCount-1) of a pass of reads, as {@link #fillKey}. */
    public byte[] readKey(int position, byte[] buffer) {
        return key(readSlab, readKeys, position, buffer);
    }

    private byte[] key(byte[] slab, byte[][] keys, int position, byte[] buffer) {
        if (slab == null) {
            return keys[position];
        }
        System.arraycopy(slab, position * keySize, buffer, 0, keySize);
        return buffer;
    }

    /** The value every put stores. */
    public byte[] value() {
        return value;
    }

    /** Average key length in bytes, rounded up; the length of every key when {@link #fixedKeySize()}. */
    public int keySize() {
        return keySize;
    }

    /** True when all keys have the same length. */
    public boolean fixedKeySize() {
        return fixedKeySize;
    }
}
