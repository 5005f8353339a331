package io.caskbench.bitcask.io;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Threading: readers enter and exit from any thread without a lock; waiters are serialized on the gate's own lock.
 *
 * <p>Lets lock-free readers use segments while a closer or a merge waits for them before it unmaps
 * one. Readers announce themselves in one of two sets of striped counters chosen by the parity of
 * an epoch; a waiter moves the epoch on and waits until the old set drains. New readers enter the
 * new set, so a waiter can never be starved (the left-right read indicator).
 *
 * <p>The cost to a reader is two uncontended atomic adds on its own padded stripe.
 */
public final class ReaderGate {

    private static final int PAD = 16; // longs per stripe: 128 bytes, no false sharing
    /** Final, safe everywhere. */
    private final int stripes;
    /** Readers in each stripe of the two sets; any thread, atomically. */
    private final AtomicLongArray counts;
    /** Which set new readers enter; any thread reads, a waiter under the gate's monitor moves it on. */
    private volatile long epoch;

    /** A gate with enough stripes for this machine. */
    public ReaderGate() {
        int want = Math.max(8, Runtime.getRuntime().availableProcessors() * 4);
        this.stripes = Integer.highestOneBit(want - 1) << 1;
        this.counts = new AtomicLongArray(2 * stripes * PAD);
    }

    /**
     * Enters the gate.
     *
     * @return the token to pass to {@link #exit}
     */
    public int enter() {
        @SuppressWarnings("deprecation") // getId() is what Java 17 offers; threadId() arrived in 19
        int stripe = (int) Thread.currentThread().getId() & (stripes - 1);
        while (true) {
            long e = epoch;
            int index = ((int) (e & 1) * stripes + stripe) * PAD;
            counts.getAndIncrement(index);
            if (epoch == e) {
                return index;
            }
            counts.getAndDecrement(index);
        }
    }

    /** Leaves the gate. */
    public void exit(int token) {
        counts.getAndDecrement(token);
    }

    /** Returns once every reader that entered before this call has left. */
    public synchronized void awaitReaders() {
        long old = epoch;
        epoch = old + 1;
        int base = (int) (old & 1) * stripes;
        for (int s = 0; s < stripes; s++) {
            int index = (base + s) * PAD;
            int spins = 0;
            while (counts.get(index) != 0) {
                if (++spins < 100) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
    }
}
