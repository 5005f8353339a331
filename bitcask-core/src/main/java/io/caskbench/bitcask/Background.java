package io.caskbench.bitcask;

import io.caskbench.bitcask.io.Threads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Threading: started by open and stopped by close; its tasks run on daemon threads, one per task, so
 * that neither waits for the other.
 *
 * <p>The store's scheduled work: the force under {@link SyncPolicy#INTERVAL}, and the check for
 * an automatic merge.
 */
final class Background {

    private static final Logger LOG = LoggerFactory.getLogger(Background.class);

    /** The daemon, or null when there is nothing to schedule. Final. */
    private final ScheduledExecutorService executor;

    private Background(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    /** Starts what {@code options} ask for: {@code sync} at the sync interval, {@code mergeCheck} at the merge check interval. */
    static Background start(Path dir, BitCaskOptions options, Runnable sync, Runnable mergeCheck) {
        boolean interval = options.syncPolicy() == SyncPolicy.INTERVAL && !options.readOnly();
        boolean autoMerge = options.autoMerge() && !options.readOnly();
        if (!interval && !autoMerge) {
            return new Background(null);
        }
        // A thread for each task: an automatic merge runs for as long as it must (longer when paced), and
        // the interval's force may not wait for it.
        int threads = (interval ? 1 : 0) + (autoMerge ? 1 : 0);
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(threads, Threads.daemons("background", dir));
        if (interval) {
            every(executor, options.syncInterval(), guarded(sync, "background sync", dir));
        }
        if (autoMerge) {
            every(executor, options.mergeCheckInterval(), guarded(mergeCheck, "automatic merge", dir));
        }
        return new Background(executor);
    }

    private static void every(ScheduledExecutorService executor, Duration interval, Runnable task) {
        long ms = interval.toMillis();
        executor.scheduleWithFixedDelay(task, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** A task whose failure is logged: a scheduled task that throws is never run again. */
    private static Runnable guarded(Runnable task, String what, Path dir) {
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

    /** Stops the daemon now, interrupting a task under way. */
    void stop() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
