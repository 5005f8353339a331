package io.caskbench.bitcask;

import io.caskbench.bitcask.io.Threads;
import io.caskbench.bitcask.merge.DebtMonitor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Threading: started by open and stopped by close; its tasks run on daemon threads, one per task, so
 * that none waits for another; {@link #mergeSoon} from any thread.
 *
 * <p>The store's scheduled work: the force under {@link SyncPolicy#INTERVAL}, and with automatic merge
 * the debt daemon's rounds and the automatic merges. A merge runs at each check interval, and also as
 * soon as the debt daemon asks for one ({@link #mergeSoon}); the merges have a thread of their own, so
 * one asked for waits behind the one running, never beside it.
 */
final class Background {

    private static final Logger LOG = LoggerFactory.getLogger(Background.class);
    /**
     * After a merge that found nothing to select, merges asked for are ignored this long: its figures may
     * have been a round old (a merge had just made room), and a request every round would seal for nothing.
     */
    static final long QUIET_AFTER_NOTHING_NANOS = 50_000_000;

    /** The force's and the debt daemon's threads, or null when neither runs. Final. */
    private final ScheduledExecutorService executor;
    /** The automatic merges' thread, or null when they are off. Final. */
    private final ScheduledExecutorService merges;
    /** The automatic merge: true when it is worth asking for again soon. Final. */
    private final BooleanSupplier mergeCheck;
    /** The check interval, in nanoseconds. Final. */
    private final long intervalNanos;
    /** The directory, for the log. Final. */
    private final Path dir;
    /** True while a merge asked for is queued; any thread. */
    private final AtomicBoolean mergeQueued = new AtomicBoolean();
    /** Until this {@link System#nanoTime}, merges asked for are ignored: the last one found nothing, or failed. Any thread. */
    private volatile long quietUntil = System.nanoTime();

    private Background(Path dir, ScheduledExecutorService executor, ScheduledExecutorService merges,
                       BooleanSupplier mergeCheck, Duration interval) {
        this.dir = dir;
        this.executor = executor;
        this.merges = merges;
        this.mergeCheck = mergeCheck;
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Starts what {@code options} ask for: {@code sync} at the sync interval; with automatic merge,
     * {@code mergeCheck} at the merge check interval and on request, and {@code debtRound} as often as each
     * round says (it returns the milliseconds to the next).
     */
    static Background start(Path dir, BitCaskOptions options, Runnable sync, BooleanSupplier mergeCheck,
                            LongSupplier debtRound) {
        boolean interval = options.syncPolicy() == SyncPolicy.INTERVAL && !options.readOnly();
        boolean autoMerge = options.autoMerge() && !options.readOnly();
        int threads = (interval ? 1 : 0) + (autoMerge ? 1 : 0);
        ScheduledExecutorService executor = threads == 0 ? null
                : Executors.newScheduledThreadPool(threads, Threads.daemons("background", dir));
        // Its own thread: an automatic merge runs for as long as it must, and neither the interval's force nor
        // the debt daemon may wait for it.
        ScheduledExecutorService merges = autoMerge
                ? Executors.newSingleThreadScheduledExecutor(Threads.daemons("merge", dir)) : null;
        Background b = new Background(dir, executor, merges, mergeCheck, options.mergeCheckInterval());
        if (interval) {
            long ms = options.syncInterval().toMillis();
            executor.scheduleWithFixedDelay(b.guarded(sync, "background sync"), ms, ms, TimeUnit.MILLISECONDS);
        }
        if (autoMerge) {
            long ms = options.mergeCheckInterval().toMillis();
            merges.scheduleWithFixedDelay(b::runMerge, ms, ms, TimeUnit.MILLISECONDS);
            executor.execute(() -> b.debtRound(debtRound));
        }
        return b;
    }

    /**
     * Queues an automatic merge unless one is queued already, the last one found nothing in the last
     * {@link #QUIET_AFTER_NOTHING_NANOS}, or failed within the check interval: a failure is retried at the
     * interval, not every round.
     */
    void mergeSoon() {
        if (merges == null || System.nanoTime() - quietUntil < 0 || !mergeQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            merges.execute(() -> {
                mergeQueued.set(false);
                runMerge();
            });
        } catch (RejectedExecutionException stopped) {
            mergeQueued.set(false);
        }
    }

    /** Stops every daemon now, interrupting a task under way. */
    void stop() {
        if (executor != null) {
            executor.shutdownNow();
        }
        if (merges != null) {
            merges.shutdownNow();
        }
    }

    /** One automatic merge; one that finds nothing, or fails, quiets the requests for a while. */
    private void runMerge() {
        long quiet;
        try {
            quiet = mergeCheck.getAsBoolean() ? 0 : QUIET_AFTER_NOTHING_NANOS;
        } catch (IllegalStateException closedMeanwhile) {
            return; // the store closed while the merge ran
        } catch (RuntimeException e) {
            LOG.warn("automatic merge of {} failed: {}", dir, e.toString());
            quiet = intervalNanos;
        }
        quietUntil = System.nanoTime() + quiet;
    }

    /** One round of the debt daemon, then the next, scheduled as the round asks. */
    private void debtRound(LongSupplier round) {
        long next = DebtMonitor.IDLE_MILLIS;
        try {
            next = round.getAsLong();
        } catch (RuntimeException e) {
            LOG.warn("debt daemon of {} failed: {}", dir, e.toString());
        }
        try {
            executor.schedule(() -> debtRound(round), next, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            // the store is closing
        }
    }

    /** A task whose failure is logged: a scheduled task that throws is never run again. */
    private Runnable guarded(Runnable task, String what) {
        return () -> {
            try {
                task.run();
            } catch (IllegalStateException closedMeanwhile) {
                // the store closed while the task ran
            } catch (RuntimeException e) {
                LOG.warn("{} of {} failed: {}", what, dir, e.toString());
            }
        };
    }
}
