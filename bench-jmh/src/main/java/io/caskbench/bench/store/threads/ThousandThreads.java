package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.fixture.DecimalWorkload;
import io.caskbench.bench.store.fixture.FilledStore;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.fixture.PutRounds;
import io.caskbench.bench.store.fixture.StoreParam;
import io.caskbench.bench.store.single.PeersSingleThread;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Why: does throughput hold up with 1000 threads on 2 cores, for BitCask and for every peer? This is the
 * reference figure for oversubscribed throughput: 1000 platform threads, started in advance, each doing
 * {@value #OPS_PER_THREAD} operations per invocation, counted as total operations over wall time
 * ({@link Gang}). Compare each row with the same store's single-threaded figure in
 * {@link PeersSingleThread}.
 *
 * <p>The shape is one every peer runs in bounded time: at 1000 operations per thread RocksDB's and
 * Chronicle Map's puts took 30-70 s per invocation on 2 cores, so every store, BitCask included, runs
 * {@value #OPS_PER_THREAD} per thread (100k operations per invocation), and a "best peer" is chosen from
 * all of them. The {@code threads} suite sets the key count to the operations of one invocation, so each
 * row holds the keys its label says: a put round fills a fresh store with every key, a get invocation
 * reads every key once, a mixed one reads or overwrites every key once.
 *
 * <p>Must not measure by accident: thread start (the gang exists before measurement), filling and
 * deleting stores (trial and invocation setup), dead reads (every byte of every value read is summed
 * into the result), or a store that never pays what it defers (each put invocation is a whole round of
 * the gang's operations into a fresh store, the first {@code 1000 x opsPerThread} keys of the workload's fill order,
 * and closes the store in measured time, see {@link PutRounds}). The mixed workload overwrites existing
 * keys, so its store keeps its key count and grows by a tenth of an invocation's operations in records
 * per invocation for the length of the trial.
 */
@State(Scope.Benchmark)
public class ThousandThreads extends DecimalWorkload {

    /** Operations per gang thread per invocation: the published shape. */
    public static final int OPS_PER_THREAD = 100;

    /** Operations per invocation at the published shape. */
    public static final int OPS = Gang.THREADS * OPS_PER_THREAD;

    /** Declares the {@code store} parameter, by default every store at every setting ({@link StoreParam.Every}). */
    @Setup(Level.Trial)
    public void stores(StoreParam.Every stores) {
        // Nothing to set up: taking the state is what gives this benchmark the parameter.
    }

    /**
     * Operations per thread per invocation: {@value #OPS_PER_THREAD} is the published shape; the smoke run
     * lowers it, and JMH's operations per invocation must then match ({@link Gang} checks).
     */
    @Param("" + OPS_PER_THREAD)
    public int opsPerThread;

    /**
     * False: each put round goes into a fresh, empty store, as in the reference experiment. True: puts
     * replace the keys of a store filled with all of them first. Gets ignore it. Read by {@link PutRounds}
     * through {@code BenchmarkParams}; in the results it tells a report that a put row's store ends each
     * round holding twice the keys it held midway.
     */
    @Param("false")
    public boolean prefilled;

    /** 1000 threads, each putting new keys, one round per invocation, then the store's close. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public void put(PutRounds rounds, Gang gang) {
        rounds.putBatch(gang);
    }

    /** 1000 threads, each getting keys. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long get(FilledStore filled, Gang gang) {
        return gang.read(filled.store(), filled.workload(), false);
    }

    /** 1000 threads, each doing 9 gets to 1 overwrite. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long mixed(FilledStore filled, Gang gang) {
        return gang.read(filled.store(), filled.workload(), true);
    }
}
