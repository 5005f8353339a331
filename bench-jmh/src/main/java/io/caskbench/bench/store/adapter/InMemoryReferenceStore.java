package io.caskbench.bench.store.adapter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-memory reference: a store's copies without any file, a point to read the other rows against.
 * It is not an upper bound and nothing is judged against it: its put holds one lock across the probe and
 * the copy and grows its slab inside measured time once the expected keys are exceeded, so a store that
 * publishes outside its lock can beat it.
 *
 * <p>A put copies the key and the value into a value slab (byte arrays of {@link #CHUNK_BYTES}, allocated
 * for the expected keys when the store opens, so measured puts allocate nothing) and points one slot of a
 * presized open-addressing index of primitive longs at the copy. A get hashes the key, probes the index,
 * compares the key bytes in the slab and copies the value out into a new array, as every store's get
 * returns one. No per-put objects, no boxing, no wrapper key, a full 64-bit mix of the key bytes.
 *
 * <p>Puts take one lock, as BitCask's do; the hash is computed before it. Gets take no lock: a slot is
 * published with release semantics after its record is written, and read with acquire semantics. An
 * overwrite appends a new record and repoints the slot; the old bytes are not reclaimed (the mixed
 * workload grows the slab, a chunk at a time, as BitCask's log grows).
 */
final class InMemoryReferenceStore implements InMemoryStore {

    /** Bytes per slab chunk: 64 MiB, BitCask's default segment size. */
    static final int CHUNK_BYTES = 1 << 26;
    private static final int CHUNK_BITS = 26;
    /** Record header: key length (2 bytes) and value length (4 bytes). */
    private static final int HEADER = 6;
    private static final int ADDRESS_BITS = 40;
    private static final long ADDRESS_MASK = (1L << ADDRESS_BITS) - 1;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** 0 is empty; else the hash's top 24 bits above {@code address + 1} of the record. */
    private final long[] slots;
    private final int mask;
    private final int maxKeys;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Slab chunks; replaced by a longer copy (under the lock) when the slab grows. */
    private volatile byte[][] chunks;
    /** Address of the next free slab byte; written under the lock. */
    private long end;
    private int keys;

    InMemoryReferenceStore(StoreConfig config) {
        // A power of two at least twice the expected keys: probes stay short at a load of at most one half.
        long capacity = Math.max(16, Long.highestOneBit(config.expectedKeys() * 2 - 1) << 1);
        if (capacity > 1 << 30) {
            throw new IllegalArgumentException("too many keys for the in-memory reference: " + config.expectedKeys());
        }
        slots = new long[(int) capacity];
        mask = slots.length - 1;
        maxKeys = slots.length / 4 * 3;
        long record = HEADER + (long) config.keySize() + config.valueSize();
        long slab = record * config.expectedKeys();
        byte[][] initial = new byte[(int) Math.max(1, (slab + CHUNK_BYTES - 1) / CHUNK_BYTES)][];
        for (int i = 0; i < initial.length; i++) {
            initial[i] = new byte[CHUNK_BYTES];
        }
        chunks = initial;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        long hash = hash(key);
        writeLock.lock();
        try {
            int i = (int) hash & mask;
            long slot;
            while ((slot = slots[i]) != 0 && !(tag(slot) == tag(hash) && matches(slot, key))) {
                i = (i + 1) & mask;
            }
            if (slot == 0 && ++keys > maxKeys) {
                keys--;
                throw new IllegalStateException("the in-memory reference is sized for " + maxKeys + " keys");
            }
            long address = append(key, value);
            SLOTS.setRelease(slots, i, (hash & ~ADDRESS_MASK) | (address + 1));
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public byte[] get(byte[] key) {
        long hash = hash(key);
        int i = (int) hash & mask;
        while (true) {
            long slot = (long) SLOTS.getAcquire(slots, i);
            if (slot == 0) {
                return null;
            }
            if (tag(slot) == tag(hash) && matches(slot, key)) {
                long address = (slot & ADDRESS_MASK) - 1;
                byte[] chunk = chunks[(int) (address >>> CHUNK_BITS)];
                int at = (int) (address & (CHUNK_BYTES - 1));
                int valueLength = valueLength(chunk, at);
                byte[] value = new byte[valueLength];
                System.arraycopy(chunk, at + HEADER + key.length, value, 0, valueLength);
                return value;
            }
            i = (i + 1) & mask;
        }
    }

    /** Copies the record into the slab and returns its address; under the lock. */
    private long append(byte[] key, byte[] value) {
        int length = HEADER + key.length + value.length;
        if (length > CHUNK_BYTES) {
            throw new IllegalArgumentException("record of " + length + " bytes is larger than a slab chunk");
        }
        long address = end;
        if ((address & (CHUNK_BYTES - 1)) + length > CHUNK_BYTES) {
            address = (address | (CHUNK_BYTES - 1)) + 1; // records do not span chunks
        }
        int index = (int) (address >>> CHUNK_BITS);
        byte[][] current = chunks;
        if (index == current.length) {
            byte[][] grown = Arrays.copyOf(current, current.length + 1);
            grown[index] = new byte[CHUNK_BYTES];
            chunks = grown;
            current = grown;
        }
        byte[] chunk = current[index];
        int at = (int) (address & (CHUNK_BYTES - 1));
        chunk[at] = (byte) (key.length >>> 8);
        chunk[at + 1] = (byte) key.length;
        chunk[at + 2] = (byte) (value.length >>> 24);
        chunk[at + 3] = (byte) (value.length >>> 16);
        chunk[at + 4] = (byte) (value.length >>> 8);
        chunk[at + 5] = (byte) value.length;
        System.arraycopy(key, 0, chunk, at + HEADER, key.length);
        System.arraycopy(value, 0, chunk, at + HEADER + key.length, value.length);
        end = address + length;
        return address;
    }

    private boolean matches(long slot, byte[] key) {
        long address = (slot & ADDRESS_MASK) - 1;
        byte[] chunk = chunks[(int) (address >>> CHUNK_BITS)];
        int at = (int) (address & (CHUNK_BYTES - 1));
        int keyLength = ((chunk[at] & 0xFF) << 8) | (chunk[at + 1] & 0xFF);
        return keyLength == key.length
                && Arrays.equals(chunk, at + HEADER, at + HEADER + keyLength, key, 0, key.length);
    }

    private static int valueLength(byte[] chunk, int at) {
        return ((chunk[at + 2] & 0xFF) << 24) | ((chunk[at + 3] & 0xFF) << 16) | ((chunk[at + 4] & 0xFF) << 8)
                | (chunk[at + 5] & 0xFF);
    }

    private static long tag(long hashOrSlot) {
        return hashOrSlot >>> ADDRESS_BITS;
    }

    /** A 64-bit mix of every key byte, eight at a time (decimal keys differ only in their last bytes). */
    static long hash(byte[] key) {
        long h = 0x9E3779B97F4A7C15L * (key.length + 1);
        int i = 0;
        for (; i + Long.BYTES <= key.length; i += Long.BYTES) {
            h = mix(h ^ (long) LONGS.get(key, i));
        }
        long tail = 0;
        for (int k = key.length - 1; k >= i; k--) {
            tail = (tail << 8) | (key[k] & 0xFF);
        }
        return mix(h ^ tail);
    }

    /** The finalizer of SplitMix64: every input bit reaches every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public void close() {
        chunks = new byte[0][];
    }
}
