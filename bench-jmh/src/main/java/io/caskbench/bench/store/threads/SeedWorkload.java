package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.fixture.FilledStore;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.fixture.PutRounds;
import io.caskbench.bench.store.fixture.Reads;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.fixture.StoreParam;
import io.caskbench.bench.store.fixture.WorkloadSpec;
import io.caskbench.bench.store.workload.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Why: reproduces the reference experiment (a Java BitCask) so its published figures can stand beside
 * ours. Keys {@code object<i>.png}, each value the same Protostuff-serialized object-metadata record: 1M
 * puts into an empty store, then 1M gets, on one thread; then 1000 threads x 1000 puts and 1000 threads x
 * 1000 gets.
 *
 * <p>Unlike the seed, whose "concurrent read" loop called {@code put}, the gets here really read: every
 * key is looked up and a missing one fails the run. Each invocation is one whole seed pass (1M
 * operations), so the score is the seed's "kv/s". Puts start from an empty store every invocation, and
 * the store is closed at the end of each, in measured time ({@link PutRounds}).
 *
 * <p>Must not measure by accident: serializing the record or formatting keys (pre-generated), starting
 * threads (the gang exists before measurement), filling and deleting stores (fixtures), or dead reads
 * (every byte of every value is summed into the result).
 */
@State(Scope.Benchmark)
public class SeedWorkload extends StoreBenchmark {

    /** Declares the {@code store} parameter, by default every store at every setting ({@link StoreParam.Every}). */
    @Setup(Level.Trial)
    public void stores(StoreParam.Every stores) {
        // Nothing to set up: taking the state is what gives this benchmark the parameter.
    }

    /** Selects the reference experiment's keys and values in {@link WorkloadSpec}. */
    @Param("SEED")
    public String workload;

    /** Operations per thread in the 1000-thread methods: 1000 as in the seed; only the smoke run lowers it. */
    @Param("1000")
    public int opsPerThread;

    /** 1M puts on one thread. */
    @Benchmark
    @OperationsPerInvocation(WorkloadSpec.SEED_KEYS)
    public void singlePut(PutRounds rounds) {
        rounds.putBatch();
    }

    /** 1M gets on one thread. */
    @Benchmark
    @OperationsPerInvocation(WorkloadSpec.SEED_KEYS)
    public long singleGet(FilledStore filled) {
        Workload keys = filled.workload();
        byte[] buffer = keys.keyBuffer();
        long sum = 0;
        for (int i = 0; i < WorkloadSpec.SEED_KEYS; i++) {
            sum += Reads.sum(Reads.get(filled.store(), keys, i % keys.keyCount(), buffer));
        }
        return sum;
    }

    /** 1000 threads x 1000 puts. */
    @Benchmark
    @OperationsPerInvocation(Gang.OPS)
    public void threadsPut(PutRounds rounds, Gang gang) {
        rounds.putBatch(gang);
    }

    /** 1000 threads x 1000 gets that really read. */
    @Benchmark
    @OperationsPerInvocation(Gang.OPS)
    public long threadsGet(FilledStore filled, Gang gang) {
        return gang.read(filled.store(), filled.workload(), false);
    }
}
