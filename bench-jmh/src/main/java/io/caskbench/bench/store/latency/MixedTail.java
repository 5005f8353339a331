package io.caskbench.bench.store.latency;

import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Closed loop, and no longer in the latency suite: {@link MixedTailOpenLoop} measures this tail open-loop.
 * Timed back to back, an operation that a stall delays is never issued during the stall, so its percentiles
 * are coordinated with the store they measure; the report labels its rows "closed loop" and judges no goal
 * by them. It still runs by name, for comparison.
 *
 * <p>Why: how long does a writer wait when it is one of many? 64 threads share one BitCask store, 61 reading
 * and 3 overwriting with 1 KiB values: 95% of the threads read, as 95% of the operations do in YCSB's
 * workload B (the operations themselves split by how fast each side runs, which the sample counts show), and JMH samples the time of single operations. The figures are put p99 and p99.9, and get
 * p99 beside them: anything that stalls a writer (a rollover mapping a new segment, the write lock held
 * across it, hint writing, a pause) shows in the put tail, not in the mean.
 *
 * <p>Keys are read and overwritten in a random order independent of the fill order, each thread starting
 * at its own place in it. Not measured: the fill, key formatting (keys come from a contiguous slab, see
 * {@link Workload}) and thread start. With 64 threads on a 2-core machine a sampled operation also
 * includes the time its thread waited for a core; the get tail shows how much of the put tail that
 * explains.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MixedTail extends StoreBenchmark {

    /** Reading threads of the group: 61 of 64, 95% of the threads. */
    static final int GET_THREADS = 61;
    /** Writing threads of the group. */
    static final int PUT_THREADS = 3;

    /** Segment backend. */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;

    /** Distinct keys, all written before measuring. */
    @Param("100000")
    public int keyCount;

    /** Value length: 1 KiB, as the workload B runs it. */
    @Param("1024")
    public int valueSize;

    private LatencyStore store;
    private BitCask db;
    private Workload workload;

    /** Each thread's place in the read order, and its reused key buffer. */
    @State(Scope.Thread)
    public static class Cursor extends KeyCursor {
        private static final AtomicInteger STARTS = new AtomicInteger();

        /** Creates the state; JMH starts it in {@link #start}. */
        public Cursor() {
        }

        /** Starts this thread at its own place in the read order, spread evenly over the keys. */
        @Setup(Level.Trial)
        public void start(MixedTail bench) {
            startAt(bench.workload, STARTS.getAndIncrement() * (long) bench.keyCount / (GET_THREADS + PUT_THREADS));
        }
    }

    /** Opens a fresh store and writes every key once, then forces it, so the measurement starts settled. */
    @Setup(Level.Trial)
    public void fill() {
        workload = Workload.decimal(keyCount, valueSize, KeyOrder.RANDOM);
        store = LatencyStore.fill(backend, workload, 1, o -> o.maxValueSize(valueSize));
        db = store.db();
    }

    /** Closes the store and deletes it. */
    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    /** One get of an existing key, which must be found; its value goes to the blackhole. */
    @Benchmark
    @Group("mix")
    @GroupThreads(GET_THREADS)
    public void get(Cursor cursor, Blackhole bh) {
        bh.consume(cursor.getNext(db));
    }

    /** One overwrite of an existing key with a 1 KiB value. */
    @Benchmark
    @Group("mix")
    @GroupThreads(PUT_THREADS)
    public void put(Cursor cursor) {
        db.put(cursor.next(), workload.value());
    }

    /**
     * The harness alone, for the gets: the same 61 threads fetch the same keys and call no store. Its tail is
     * what 64 threads on this machine's cores cost before any store is called (waiting for a core, pauses).
     */
    @Benchmark
    @Group("harness")
    @GroupThreads(GET_THREADS)
    public void harnessGet(Cursor cursor, Blackhole bh) {
        bh.consume(cursor.next());
    }

    /** The harness alone, for the puts: the key a put would write, fetched and given to the blackhole. */
    @Benchmark
    @Group("harness")
    @GroupThreads(PUT_THREADS)
    public void harnessPut(Cursor cursor, Blackhole bh) {
        bh.consume(cursor.next());
    }
}
