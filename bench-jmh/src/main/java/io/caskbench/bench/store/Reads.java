package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.workload.Workload;

/** The one way every store benchmark reads a key. */
final class Reads {

    private Reads() {
    }

    /**
     * Gets the key at {@code position} of the read order and fails when it is missing: every key of a
     * filled store must be found, so a broken store or fixture cannot pass as a fast one.
     *
     * @param keyBuffer the calling thread's buffer from {@link Workload#keyBuffer()}
     */
    static byte[] get(StoreAdapter store, Workload workload, int position, byte[] keyBuffer) {
        return found(store.get(workload.readKey(position, keyBuffer)), position);
    }

    /**
     * The sum of every byte of {@code value}: what a reader that is not a JMH thread returns, so every byte
     * of every value it read reaches the result and no copy can be left out as unused.
     */
    static long sum(byte[] value) {
        long sum = 0;
        for (byte b : value) {
            sum += b;
        }
        return sum;
    }

    /** {@code value}, the result of reading the key at {@code position}; fails when it is null. */
    static byte[] found(byte[] value, int position) {
        if (value == null) {
            throw new IllegalStateException("key at position " + position + " is missing");
        }
        return value;
    }
}
