package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Why: does throughput hold up with 1000 threads on 2 cores, for BitCask and for every peer? This is the
 * reference figure for oversubscribed throughput: 1000 platform threads, started in advance, each doing
 * 1000 operations per invocation, counted as total operations over wall time ({@link Gang}). Compare
 * each row with the same store's single-threaded figure in {@link PeersSingleThread}.
 *
 * <p>Not measured by accident: thread start (the gang exists before measurement), store growth (puts
 * go into a fresh store every invocation, see {@link PutRounds}), filling (trial setup). The mixed
 * workload overwrites existing keys, so its store grows by 100k records per invocation for the length
 * of the trial.
 */
@State(Scope.Benchmark)
public class ThousandThreads extends DecimalWorkload {

    /**
     * The store; by default every one that runs on JDK 17. BITCASK_MEMORY_SEGMENT (JDK 22+) runs only when
     * named, as JMH fixes its defaults when the benchmarks are compiled. Read by the fixtures through
     * {@code BenchmarkParams}.
     */
    @Param({"BITCASK_MAPPED", "BITCASK_FILE_CHANNEL", "ROCKSDB", "LMDB", "CHRONICLE_MAP", "MAPDB", "H2_MVSTORE",
        "MAPDB_TX", "H2_MVSTORE_COMMIT", "LMDB_RENEW_100", "LMDB_TXN_REUSED", "ROCKSDB_TUNED", "CHRONICLE_MAP_TUNED",
        "CONCURRENT_HASH_MAP", "IN_MEMORY_BOUND", "HARNESS"})
    public StoreKind store;

    /** Operations per thread per invocation: 1000 is the reference form; only the smoke run lowers it. */
    @Param("1000")
    public int opsPerThread;

    /** 1000 threads x 1000 puts of new keys. */
    @Benchmark
    @OperationsPerInvocation(Gang.OPS)
    public void put(PutRounds rounds, Gang gang) {
        gang.put(rounds.store(), rounds.workload(), rounds.claimBatch());
    }

    /** 1000 threads x 1000 gets. */
    @Benchmark
    @OperationsPerInvocation(Gang.OPS)
    public long get(FilledStore filled, Gang gang) {
        return gang.read(filled.store(), filled.workload(), false);
    }

    /** 1000 threads x (900 gets + 100 overwrites). */
    @Benchmark
    @OperationsPerInvocation(Gang.OPS)
    public long mixed(FilledStore filled, Gang gang) {
        return gang.read(filled.store(), filled.workload(), true);
    }
}
