package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.workload.Workload;

/** The one way every store benchmark reads a key. */
final class Reads {

    private Reads() {
    }

    /**
     * Gets the key at {@code position} and fails when it is missing: every key of a filled store must be
     * found, so a broken store or fixture cannot pass as a fast one.
     */
    static byte[] get(StoreAdapter store, Workload workload, int position) {
        byte[] value = store.get(workload.readKey(position));
        if (value == null) {
            throw new IllegalStateException("key at position " + position + " is missing");
        }
        return value;
    }
}
