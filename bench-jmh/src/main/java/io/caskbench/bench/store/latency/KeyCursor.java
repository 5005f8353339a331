package io.caskbench.bench.store.latency;

import io.caskbench.bench.store.fixture.Reads;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.BitCask;

/**
 * One thread's walk through a workload's read order, from a place of its own, into a reused key buffer;
 * the latency benchmarks' thread states extend it. Threading: one benchmark thread only.
 */
abstract class KeyCursor {

    private Workload workload;
    private byte[] key;
    private int position;

    /** Starts the walk at {@code start} (taken modulo the key count). */
    final void startAt(Workload workload, long start) {
        this.workload = workload;
        this.key = workload.keyBuffer();
        this.position = (int) Math.floorMod(start, (long) workload.keyCount());
    }

    /**
     * Gets the next key's value from {@code db}, and fails when it is missing, as {@link Reads#get} does:
     * every key of the filled store must be found, also while a merge moves it, so a store that loses keys
     * cannot pass as a fast one.
     */
    final byte[] getNext(BitCask db) {
        int p = position;
        return Reads.found(db.get(next()), p);
    }

    /**
     * {@link #getNext} summing every byte of the value, so that all of it is read; for the open-loop
     * benchmarks, whose worker threads have no {@code Blackhole}.
     */
    final long getNextSum(BitCask db) {
        return Reads.sum(getNext(db));
    }

    /** {@code threads} cursors on {@code workload}, one per worker thread, starting evenly spread over the keys. */
    static KeyCursor[] spread(Workload workload, int threads) {
        KeyCursor[] cursors = new KeyCursor[threads];
        for (int t = 0; t < threads; t++) {
            cursors[t] = new KeyCursor() { };
            cursors[t].startAt(workload, t * (long) workload.keyCount() / threads);
        }
        return cursors;
    }

    /** The next key in read order, wrapping at the end; valid until the next call. */
    final byte[] next() {
        int p = position;
        position = p + 1 == workload.keyCount() ? 0 : p + 1;
        return workload.readKey(p, key);
    }
}
