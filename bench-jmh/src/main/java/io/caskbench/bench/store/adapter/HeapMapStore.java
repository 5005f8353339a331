package io.caskbench.bench.store.adapter;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ConcurrentHashMap} of byte arrays: no disk, no serialization, no durability. It is the upper
 * bound a store keeping an in-memory index can approach, not a competitor.
 *
 * <p>It copies keys and values like every other store does, so it pays for the same allocations, and it
 * is pre-sized so that it never rehashes during measurement.
 */
final class HeapMapStore implements StoreAdapter {

    private final ConcurrentHashMap<Key, byte[]> map;

    HeapMapStore(StoreConfig config) {
        map = new ConcurrentHashMap<>((int) Math.min(Integer.MAX_VALUE / 2, config.expectedKeys() * 4 / 3 + 16));
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(new Key(key.clone()), value.clone());
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = map.get(new Key(key));
        return value == null ? null : value.clone();
    }

    @Override
    public void settle() {
        // Nothing to settle in memory.
    }

    @Override
    public void close() {
        map.clear();
    }

    /** A byte-array key with content equality and a hash computed once. */
    private static final class Key {
        private final byte[] bytes;
        private final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }
    }
}
