package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.fixture.DecimalWorkload;
import io.caskbench.bench.store.fixture.FilledStore;
import io.caskbench.bench.store.fixture.PutRounds;
import io.caskbench.bench.store.fixture.Reads;
import io.caskbench.bench.store.fixture.StoreParam;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Why: what does each store do under thousands of virtual threads (JDK 21+, run on Temurin 25), beside
 * its 1000-platform-thread rows in {@link ThousandThreads}? Each invocation starts {@code threads} virtual
 * threads that share 1,000,000 gets or puts ({@link VirtualGang}); the score is total operations over the
 * wall time, virtual-thread starts included. {@code pinned} and {@code carriersAdded} ({@link CarrierCounters})
 * say whether the store's calls pinned their carriers or blocked them in file I/O so that the JDK added
 * carriers. Forced puts are {@link VirtualThreadsAlways}.
 *
 * <p>Not measured by accident: filling (trial setup), store growth (puts go into a fresh store once a round
 * of keys is used up, see {@link PutRounds}), and the JFR stream's start. The stream that counts pins runs
 * in every fork of this class, so every row carries its (small) cost alike.
 */
@State(Scope.Benchmark)
public class VirtualThreads extends DecimalWorkload {

    /** Operations per invocation, shared by the threads. */
    static final int OPS = 1_000_000;

    /** Declares the {@code store} parameter, by default each store at its main setting, the heap map and the harness ({@link StoreParam.MainSettings}). */
    @Setup(Level.Trial)
    public void stores(StoreParam.MainSettings stores) {
        // Nothing to set up: taking the state is what gives this benchmark the parameter.
    }

    /** Virtual threads per invocation; 1,000,000 operations must divide by it. Read by {@link VirtualGang}. */
    @Param({"1000", "100000"})
    public int threads;

    /** {@code threads} virtual threads put new keys, 1,000,000 in all. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public void put(PutRounds rounds, VirtualGang gang, CarrierCounters counters) {
        var store = rounds.store();
        var workload = rounds.workload();
        int n = workload.keyCount();
        byte[] value = workload.value();
        int ops = gang.opsPerThread();
        gang.each((t, j) -> {
            store.put(workload.fillKey((t * ops + j) % n, gang.keyBuffer(t, workload)), value);
            return 0;
        });
        rounds.finishRound();
        counters.record(gang);
    }

    /** {@code threads} virtual threads get present keys, 1,000,000 in all; fails on a missing key. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long get(FilledStore filled, VirtualGang gang, CarrierCounters counters) {
        var store = filled.store();
        var workload = filled.workload();
        int n = workload.keyCount();
        int ops = gang.opsPerThread();
        long read = gang.each((t, j) -> Reads.get(store, workload, (t * ops + j) % n, gang.keyBuffer(t, workload)).length);
        counters.record(gang);
        return read;
    }
}
