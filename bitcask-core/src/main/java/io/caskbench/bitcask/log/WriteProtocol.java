package io.caskbench.bitcask.log;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Threading: any thread, through the two ways in; {@link #published} from any putting thread;
 * {@link #publishing} and {@link #awaitPublished} only inside a way in, under the lock.
 *
 * <p>The write protocol: the writers' lock and the count of puts still publishing, with the only
 * two ways in. A put's way ({@link #reserve}) runs its reservation under the lock and counts the put
 * as publishing; the put then copies its record and publishes it without the lock, and ends its
 * count with {@link #published} whether that succeeds or fails. An exclusive change's way
 * ({@link #exclusive}) takes the lock, waits until no put is left publishing (the lock stops new
 * ones; those it waits for need no lock, only a core), and runs the change with the log and the key
 * directory to itself: deletes, batches, a merge's seal and swap, a snapshot, close.
 *
 * <p>The lock barges (a running thread that releases it may take it again at once). With far more
 * threads than cores that is what keeps throughput up: the thread holding a core does many puts per
 * time slice. A queue that hands each put to a combiner thread instead costs a context switch per
 * put; measured with 1000 threads on 2 cores it ran 20x slower than this lock.
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
     * A put's way in: runs {@code step} (its room check and reservation) under the lock and returns
     * its result; when it returns normally the put counts as publishing, and the caller must end the
     * count with {@link #published} once, after its publication or its failure.
     */
    public <T> T reserve(Supplier<T> step) {
        lock.lock();
        try {
            T reserved = step.get();
            reservedPuts++;
            return reserved;
        } finally {
            lock.unlock();
        }
    }

    /** Ends the count of one put that {@link #reserve} counted. Any thread, once per put. */
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
