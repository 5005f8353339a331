package io.caskbench.bench.store.latency;

import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import java.util.concurrent.TimeUnit;
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
 * Closed loop: its put throughput judges the merge's throughput goal, while its get p99 is shown labelled
 * "closed loop" and judges nothing; {@link MergeTailOpenLoop} measures the get tail open-loop.
 *
 * <p>Why: what does a merge cost the foreground? One thread reads and one overwrites a store of 1M keys
 * (16-byte keys, 100-byte values, random order), while a merge runs back to back at the default rate
 * limit and with the default pacing by the foreground's latency ({@code merge=BACK_TO_BACK}), the same
 * without pacing ({@code merge=BACK_TO_BACK_UNPACED}), or never ({@code merge=NONE}). The figures are get p99 with merge over
 * get p99 without, and put throughput with merge over put throughput without (the inverse ratio of the
 * mean put times). Merge's effect on latency is the best-known complaint about BitCask-style stores.
 *
 * <p>Before measuring, every key is written twice, so half of the store is dead and the first merge has
 * work at once; the overwrites keep making more. Not measured: the fill, the merge thread's start and
 * stop, and key formatting. The merge thread is a third runnable thread on what may be a 2-core machine,
 * so some of the cost it shows is the core it takes, which is a real cost of merging there too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MergeLatency extends StoreBenchmark {

    /** Whether a merge runs while the group measures. */
    public enum MergeMode {
        /** No merge. */
        NONE,
        /** One merge after another, each as soon as the previous one ends (a short nap when nothing was dead). */
        BACK_TO_BACK,
        /** The same with the store's merge pacing off: only the (unlimited) byte rate limits the copying. */
        BACK_TO_BACK_UNPACED
    }

    /** Segment backend. */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;

    /** Merge or not. */
    @Param({"NONE", "BACK_TO_BACK", "BACK_TO_BACK_UNPACED"})
    public MergeMode merge;

    /** Distinct keys. */
    @Param("1000000")
    public int keyCount;

    private LatencyStore store;
    private BitCask db;
    private Workload workload;

    /** Each thread's place in the read order, and its reused key buffer. */
    @State(Scope.Thread)
    public static class Cursor extends KeyCursor {

        /** Creates the state; JMH starts it in {@link #start}. */
        public Cursor() {
        }

        /** Starts at a place chosen from the thread's name, so the reader and the writer do not walk together. */
        @Setup(Level.Trial)
        public void start(MergeLatency bench) {
            startAt(bench.workload, Thread.currentThread().getName().hashCode() * 0x9E3779B1L);
        }
    }

    /** Opens a fresh store, writes every key twice, forces it, and starts the merge thread if asked. */
    @Setup(Level.Trial)
    public void fill() {
        workload = Workload.decimal(keyCount, 100, KeyOrder.RANDOM);
        store = LatencyStore.fill(backend, workload, 2, o -> o.mergePacing(merge != MergeMode.BACK_TO_BACK_UNPACED));
        db = store.db();
        if (merge != MergeMode.NONE) {
            store.mergeBackToBack();
        }
    }

    /** Stops the merge thread, then closes the store and deletes it; fails a merge run whose merges failed or never completed. */
    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    /** One get of an existing key, which must be found; its value goes to the blackhole. */
    @Benchmark
    @Group("rw")
    @GroupThreads(1)
    public void get(Cursor cursor, Blackhole bh) {
        bh.consume(cursor.getNext(db));
    }

    /** One overwrite of an existing key. */
    @Benchmark
    @Group("rw")
    @GroupThreads(1)
    public void put(Cursor cursor) {
        db.put(cursor.next(), workload.value());
    }
}
