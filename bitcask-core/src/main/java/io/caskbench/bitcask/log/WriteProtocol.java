package io.caskbench.bitcask.log;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Threading: any thread, through the two ways in; {@link #published} from any putting thread;
 * {@link #countPut}, {@link #publishing} and {@link #awaitPublished} only inside a way in, under
 * the lock.
 *
 * <p>The write protocol: the writers' lock and the count of puts still publishing, with the only
 * two ways in. A write group's way ({@link #lead}) runs its leader's step under the lock; the step
 * counts each put it writes as publishing ({@link #countPut}), and each of those puts publishes
 * its record after the leader has let go of the lock and woken it, and ends its count with
 * {@link #published} whether that succeeds or fails. An exclusive change's way
 * ({@link #exclusive}) takes the lock, waits until no put is left publishing (the lock stops new
 * ones; those it waits for need no lock, only a core), and runs the change with the log and the key
 * directory to itself: deletes, batches, a merge's seal and swap, a snapshot, close.
 *
 * <p>The lock barges (a running thread that releases it may take it again at once), so an
 * exclusive change is not queued behind every group waiting to be written.
 */
public final class WriteProtocol {

    /** The writers' lock: barging, see the class comment. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Puts counted as publishing; under {@code lock}. */
    private long reservedPuts;
    /**
     * Puts that have published, or failed to; any putting thread adds. Striped, since puts on two
     * cores finish at once; the sum is exact whenever no put is publishing, which is all a wait needs.
     */
    private final LongAdder publishedPuts = new LongAdder();

    /** A protocol with no put publishing. */
    public WriteProtocol() {
    }

    /**
     * A write group's way in: runs {@code step} (the leader's write of its group) under the lock and
     * returns its result. The step counts with {@link #countPut} each put whose count its own thread
     * must end with {@link #published}; it does not wait for puts still publishing.
     */
    public <T> T lead(Supplier<T> step) {
        lock.lock();
        try {
            return step.get();
        } finally {
            lock.unlock();
        }
    }

    /** Counts one put as publishing; inside {@link #lead}, once for each put it placed. */
    void countPut() {
        reservedPuts++;
    }

    /** Ends the count of one put that {@link #countPut} counted. Any thread, once per put. */
    public void published() {
        publishedPuts.increment();
    }

    /**
     * An exclusive change's way in: takes the lock, waits until no put is left publishing, and
     * returns what {@code change} returns.
     */
    public <T> T exclusive(Supplier<T> change) {
        lock.lock();
        try {
            awaitPublished();
            return change.get();
        } finally {
            lock.unlock();
        }
    }

    /** Puts counted and not yet published, never fewer than the truth; inside a way in. */
    long publishing() {
        return reservedPuts - publishedPuts.sum(); // the sum only lags
    }

    /** Waits until no put is left publishing; inside a way in, so no new one can start. */
    void awaitPublished() {
        // A sum that reaches the count is exact: each stripe only rises, and none rises past it.
        boolean interrupted = false;
        for (int spins = 0; publishedPuts.sum() != reservedPuts; spins++) {
            if (spins < 128) {
                Thread.onSpinWait();
            } else if (spins < 1024) {
                Thread.yield();
            } else {
                interrupted |= Thread.interrupted(); // else the park returns at once, every time
                LockSupport.parkNanos(20_000);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
