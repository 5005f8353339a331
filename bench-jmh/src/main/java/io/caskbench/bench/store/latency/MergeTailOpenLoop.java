package io.caskbench.bench.store.latency;

import io.caskbench.bench.openloop.OpenLoopSettings;
import io.caskbench.bench.openloop.OperationMix;
import io.caskbench.bench.store.latency.MergeLatency.MergeMode;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Why: what does a merge do to the foreground's tail when requests arrive at a fixed rate? Two worker
 * threads share a total arrival rate ({@code rate}) over a store of 1M keys (16-byte keys, 100-byte values,
 * random order), half the operations gets and half overwrites, each timed from when it was due
 * ({@link io.caskbench.bench.openloop.OpenLoopDriver}); beside them a merge runs back to back at the store's
 * defaults ({@code merge=BACK_TO_BACK}), or never ({@code merge=NONE}). The figures are get p50, p99, p99.9
 * and max with a merge against without, at each rate; a get that waits behind a merge's swap, or for a core
 * the merge took, is counted with every operation queued behind it.
 *
 * <p>The rates. A probe on this 2-core machine (300k keys, 1.5 s per rate, one fork, while other builds
 * kept it loaded at about 19 runnable threads) kept up at 10,000 operations per second with and without a
 * merge, and saturated near 28,000 without a merge and 18,000 with one. With the machine to itself more is
 * left, so the rows run at 5,000 and 20,000 operations per second, parameters ({@code -p rate=}); a row
 * whose {@code achieved} rate falls short of {@code offered} was saturated and the report judges nothing by it.
 *
 * <p>Before measuring, every key is written twice, so half of the store is dead and the first merge has
 * work at once; the overwrites keep making more. Not measured: the fill, the merge thread's start and
 * stop, key formatting. Each get sums every byte of its value.
 */
@State(Scope.Benchmark)
public class MergeTailOpenLoop extends OpenLoopBenchmark {

    /** Worker threads: two, as the closed-loop merge rows ran one reader and one writer. */
    static final int THREADS = 2;

    /** Segment backend. */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;

    /** Merge or not. */
    @Param({"NONE", "BACK_TO_BACK"})
    public MergeMode merge;

    /** Distinct keys. */
    @Param("1000000")
    public int keyCount;

    /** Operations per second asked of both threads together. */
    @Param({"5000", "20000"})
    public int rate;

    private Workload workload;
    private LatencyStore store;
    private KeyCursor[] cursors;
    private OpenLoopSettings settings;

    /** Creates the state; JMH fills it in {@link #fill}. */
    public MergeTailOpenLoop() {
    }

    /** Opens a fresh store, writes every key twice, forces it, and starts the merge thread if asked. */
    @Setup(Level.Trial)
    public void fill() {
        workload = Workload.decimal(keyCount, 100, KeyOrder.RANDOM);
        cursors = KeyCursor.spread(workload, THREADS);
        settings = settings(THREADS, rate, OperationMix.withPutShare(0.5));
        store = LatencyStore.fill(backend, workload, 2, o -> o.mergePacing(merge != MergeMode.BACK_TO_BACK_UNPACED));
        if (merge != MergeMode.NONE) {
            store.mergeBackToBack();
        }
    }

    /** Stops the merge, closes the store and deletes it; fails a merge run whose merges failed or never completed. */
    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    /** The load: gets of existing keys, which must be found, and overwrites, at {@code rate}. */
    @Benchmark
    public long rw() {
        return drive(settings, getOrPut(store.db(), cursors, workload.value()));
    }
}
