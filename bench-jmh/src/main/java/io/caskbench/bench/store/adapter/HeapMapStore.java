package io.caskbench.bench.store.adapter;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A heap {@link ConcurrentHashMap} of byte arrays: no disk, no serialization, no durability. It is a
 * reference point (what a Java program gets from the JDK's map), not the in-memory reference: each put allocates a
 * wrapper key, a key copy, a value copy and a map node, all of which survive until the round's store is
 * dropped and are then collected during later measurements; the key wrapper adds a dependent load and
 * {@code Arrays.hashCode} mixes decimal keys poorly. The leaner in-memory
 * reference is {@link InMemoryReferenceStore}.
 *
 * <p>It copies keys and values like every other store does, and it is pre-sized so that it never
 * rehashes during measurement.
 */
final class HeapMapStore implements InMemoryStore {

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
