package io.caskbench.bench.store.latency;

import io.caskbench.bench.openloop.OpenLoopSettings;
import io.caskbench.bench.openloop.OperationMix;
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
 * Why: how long does a get or a put wait among 64 threads when requests arrive at a fixed rate, as a
 * server's do, rather than back to back? 64 worker threads share one BitCask store and a total arrival
 * rate ({@code rate}, operations per second); each operation is a get with 95% probability and an overwrite
 * with a 1 KiB value otherwise (YCSB's workload B), and each is timed from when it was due
 * ({@link io.caskbench.bench.openloop.OpenLoopDriver}), so a stalled writer shows in every operation that
 * queued behind it. The figures are p50, p99, p99.9 and max of gets and of puts at each rate, and beside
 * them, from the same fork, those of the harness pass: the same threads at the same rate with a 1 us
 * operation and no store, the latency of waking a thread on time on this machine, which every figure contains.
 *
 * <p>The rates. Open-loop, every operation on time costs a thread's wake-up, and 64 threads share 2 cores. A
 * probe on this 2-core machine (1.5 s per rate, one fork, while other builds kept it loaded at about 19
 * runnable threads) saturated the store near 13,000 operations per second on MAPPED and 19,000 on
 * FILE_CHANNEL, while the harness alone kept up at 200,000: the store's own work, not the wake-ups, is the
 * limit. With the machine to itself several times that is left, so the rows run at 5,000, 20,000 and 50,000
 * operations per second: far below, below, and nearer to saturation. They are parameters ({@code -p rate=});
 * a row whose {@code achieved} rate falls short of {@code offered} was saturated and the report judges
 * nothing by it, so a rate set too high shows itself instead of publishing a queue.
 *
 * <p>Not measured: the fill, key formatting (keys come from a contiguous slab, see {@link Workload}), thread
 * start. Each get sums every byte of its value, so the whole value is read.
 */
@State(Scope.Benchmark)
public class MixedTailOpenLoop extends OpenLoopBenchmark {

    /** Worker threads: 64, as the closed-loop write tail ran. */
    static final int THREADS = 64;
    /** Share of puts: 5%, as in YCSB's workload B. */
    static final double PUT_SHARE = 0.05;

    /** Segment backend. */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;

    /** Distinct keys, all written before measuring. */
    @Param("100000")
    public int keyCount;

    /** Value length: 1 KiB, as the workload B runs it. */
    @Param("1024")
    public int valueSize;

    /** Operations per second asked of all 64 threads together. */
    @Param({"5000", "20000", "50000"})
    public int rate;

    private Workload workload;
    private LatencyStore store;
    private KeyCursor[] cursors;
    private OpenLoopSettings settings;

    /** Creates the state; JMH fills it in {@link #fill}. */
    public MixedTailOpenLoop() {
    }

    /** Opens a fresh store and writes every key once, forced. */
    @Setup(Level.Trial)
    public void fill() {
        workload = Workload.decimal(keyCount, valueSize, KeyOrder.RANDOM);
        cursors = KeyCursor.spread(workload, THREADS);
        settings = settings(THREADS, rate, OperationMix.withPutShare(PUT_SHARE));
        store = LatencyStore.fill(backend, workload, 1, o -> o.maxValueSize(valueSize));
    }

    /** Closes the store and deletes it. */
    @TearDown(Level.Trial)
    public void close() {
        if (store != null) {
            store.close();
        }
    }

    /** The load: gets of existing keys, which must be found, and overwrites, at {@code rate}. */
    @Benchmark
    public long mix() {
        return drive(settings, getOrPut(store.db(), cursors, workload.value()));
    }
}
