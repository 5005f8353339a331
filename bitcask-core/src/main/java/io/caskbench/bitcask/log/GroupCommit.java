package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.events.ForceEvent;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.io.Threads;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Threading: any thread, no lock: one caller at a time leads (it holds {@code leader}), the
 * others queue in {@code waiters} and park.
 *
 * <p>Waits for durability. Concurrent callers share one force: the leader forces all that has
 * been written by then (never a range still being copied, nor one after it); the others park until a force covers their records. After its force
 * the leader wakes only the waiters it covered, plus one that it did not, to lead the next force.
 * A lock's queue would instead wake waiters one by one, and waking every waiter after each force
 * costs 1000 context switches per force with 1000 writers. It sees the log through the
 * methods of {@link Log}.
 */
public final class GroupCommit {

    /** Spins before a virtual thread waiting for an earlier copy parks: most copies end within them. */
    static final int COPY_SPINS = 64;
    /** One park of a virtual thread waiting for an earlier copy; far below a force's milliseconds. */
    static final long COPY_PARK_NANOS = 20_000;
    /** Final, safe everywhere. */
    private final Log log;
    /** Final, safe everywhere. */
    private final StoreStatus status;
    /** Final, safe everywhere. */
    private final Path dir;
    /** Whether a caller is forcing now; any thread. */
    private final AtomicBoolean leader = new AtomicBoolean();
    /** Callers waiting for a force; any thread. */
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    /** Opened when close has forced and closed every segment, or failed to; any thread waits on it. */
    private final CountDownLatch closeForced = new CountDownLatch(1);
    /** Forces made, failed ones included; the leader adds, any thread reads. */
    private final LongAdder forces = new LongAdder();
    /** Their wall time together; the leader adds, any thread reads. */
    private final LongAdder forceNanos = new LongAdder();
    /** Everything appended up to here is on the device; any thread reads, the leader or close raises it. */
    private volatile long durableLsn;

    /** What group commit needs of the log. */
    public interface Log {
        /** Bytes written so far with none still being copied before them: all that a force may cover. */
        long appended();

        /**
         * Bytes reserved so far, copies still under way included: every write that returned lies
         * before this count, so a barrier that covers it covers them all.
         */
        long reserved();

        /** Forces every record appended so far; returns the appended count that read before the force began. */
        long forceAppended();

        /** Id of the segment being appended to, for the force's event. */
        long activeSegmentId();
    }

    /** A caller parked until its records are forced. */
    private static final class Waiter {
        /** Final. */
        final Thread thread;
        /** Final. */
        final long lsn;
        /** Set by the leader that removed it from the queue; any thread. */
        volatile boolean dequeued;

        Waiter(Thread thread, long lsn) {
            this.thread = thread;
            this.lsn = lsn;
        }
    }

    /** Group commit over {@code log}. */
    public GroupCommit(Log log, StoreStatus status, Path dir) {
        this.log = log;
        this.status = status;
        this.dir = dir;
    }

    /** Forces made since open, failed ones included. */
    public long forces() {
        return forces.sum();
    }

    /** The wall time of {@link #forces()} together, in nanoseconds. */
    public long forceNanos() {
        return forceNanos.sum();
    }

    /**
     * Forces every write that returned before the call: waits for the copies reserved before it
     * (not for later ones), then forces past them. Counting only what is appended would stop at the
     * first copy still under way, and a write that returned behind it would stay unforced.
     */
    public void syncAll() {
        syncTo(log.reserved());
    }

    /**
     * Forces everything appended up to {@code lsn}; returns when it is durable.
     *
     * @throws BitCaskException when the force failed (the store is failed then), or the store
     *                          closed and its own final force failed
     */
    public void syncTo(long lsn) {
        Waiter me = null;
        int copyWaits = 0;
        boolean virtual = Threads.onVirtualThread();
        try {
            while (durableLsn < lsn) {
                status.ensureNotFailed();
                if (status.closed()) {
                    awaitCloseForce(lsn);
                    break;
                }
                if (log.appended() < lsn) {
                    // A range before lsn is still being copied: no force can cover lsn yet. A platform
                    // thread yields: 1000 of them parking on a timer cost more wake-ups than two cores
                    // could serve (800 forced puts/s against 90,000). A virtual thread parks: yielding
                    // keeps its carrier, and 1000 of them kept the copying thread off the carriers for
                    // seconds.
                    if (!virtual) {
                        Thread.yield();
                    } else if (++copyWaits < COPY_SPINS) {
                        Thread.onSpinWait();
                    } else {
                        LockSupport.parkNanos(this, COPY_PARK_NANOS);
                    }
                    continue;
                }
                if (leader.compareAndSet(false, true)) {
                    if (me != null) {
                        dequeue(me);
                        me = null;
                    }
                    lead(lsn);
                } else if (me == null) {
                    // Queue first, then look at the leader again: a leader that finished in between
                    // has either seen us in the queue or left the lead free for the next iteration.
                    me = new Waiter(Thread.currentThread(), lsn);
                    waiters.add(me);
                } else {
                    LockSupport.parkNanos(this, 10_000_000); // a guard only; a leader unparks us
                }
            }
        } finally {
            if (me != null) {
                dequeue(me);
            }
        }
    }

    /** As the leader: forces unless a force meanwhile covered {@code lsn}, then lets go of the lead and wakes waiters. */
    private void lead(long lsn) {
        ForceEvent event = null;
        long before = durableLsn;
        boolean forced = false;
        try {
            if (before < lsn && !status.closed()) {
                event = new ForceEvent();
                event.begin();
                long started = System.nanoTime();
                try {
                    long target = log.forceAppended();
                    forced = true;
                    if (target > durableLsn) {
                        durableLsn = target;
                    }
                } finally {
                    forceNanos.add(System.nanoTime() - started);
                    forces.increment();
                }
            }
        } catch (RuntimeException e) {
            if (!status.closed()) {
                throw status.fail(e);
            }
            // close() closed the segment under us; its own force decides (next iteration)
        } finally {
            leader.set(false);
            int woken = wakeWaiters();
            if (event != null) {
                event.end();
                if (event.shouldCommit()) {
                    event.store = dir.toString();
                    event.segment = log.activeSegmentId();
                    event.bytesCovered = Math.max(0, durableLsn - before);
                    event.waitersReleased = woken;
                    event.succeeded = forced;
                    event.commit();
                }
            }
        }
    }

    /**
     * Close only, once every segment is closed: opens the latch that writes racing close wait on;
     * when close forced everything, all that was appended is durable.
     */
    public void closed(boolean everythingForced) {
        if (everythingForced) {
            durableLsn = log.appended();
        }
        closeForced.countDown();
    }

    /**
     * A write that was appended before close but not yet forced waits for close's own force, so that
     * under {@code ALWAYS} no put returns unforced even when it races {@code close()}.
     */
    private void awaitCloseForce(long lsn) {
        Threads.uninterruptibly(closeForced::await);
        if (durableLsn < lsn) {
            throw new BitCaskException("store " + dir + " was closed and its final force failed; this write may not be durable");
        }
    }

    /** Removes a waiter the leader has not removed already (a queue removal is a linear search). */
    private void dequeue(Waiter w) {
        if (!w.dequeued) {
            waiters.remove(w);
        }
    }

    /**
     * Unparks the waiters the last force covered, and the first one it did not, to lead the next;
     * returns how many it covered.
     */
    private int wakeWaiters() {
        long durable = durableLsn;
        Waiter next = null;
        int woken = 0;
        for (var it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.lsn <= durable || status.closed()) {
                w.dequeued = true;
                it.remove();
                LockSupport.unpark(w.thread);
                woken++;
            } else if (next == null) {
                next = w;
            }
        }
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
        return woken;
    }
}
