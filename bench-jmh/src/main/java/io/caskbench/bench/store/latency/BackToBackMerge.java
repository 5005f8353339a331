package io.caskbench.bench.store.latency;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A thread that merges a store one merge after another, each as soon as the previous one ends (a 10 ms nap
 * when nothing was dead), until stopped; the latency benchmarks run it beside the foreground. Threading:
 * started and stopped by the trial's setup and teardown; the counters are written by the merge thread.
 */
final class BackToBackMerge {

    private final BitCask db;
    private final Thread thread;
    private final AtomicLong merges = new AtomicLong();
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    private BackToBackMerge(BitCask db) {
        this.db = db;
        this.thread = new Thread(this::mergeBackToBack, "back-to-back-merge");
        thread.setDaemon(true);
    }

    /** Starts merging {@code db}. */
    static BackToBackMerge start(BitCask db) {
        BackToBackMerge merge = new BackToBackMerge(db);
        merge.thread.start();
        return merge;
    }

    private void mergeBackToBack() {
        while (running) {
            MergeResult result;
            try {
                // Every segment, every time: the row measures the foreground beside the heaviest merge,
                // not beside a selective one that may find nothing worth taking.
                result = db.merge(MergeScope.ALL);
            } catch (RuntimeException e) {
                failure = e;
                return;
            }
            if (result.removedSegments().isEmpty()) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            } else {
                merges.incrementAndGet();
            }
        }
    }

    /** Stops merging and waits for the merge under way to end; call before closing the store. */
    void stop() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the merge to stop", e);
        }
    }

    /** Merges completed so far (each removed at least one segment). */
    long merges() {
        return merges.get();
    }

    /** Throws a merge's failure, or fails when no merge completed: such a run measured nothing. */
    void verify() {
        if (failure != null) {
            throw failure;
        }
        if (merges.get() == 0) {
            throw new IllegalStateException("no merge completed while measuring: the run measured nothing");
        }
    }
}
