package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.adapter.StoreConfig;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.workload.Workload;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Bounded puts: the keys of the workload are put in rounds, each round into a fresh, empty store, so
 * every put inserts a new key (as in the seed) and the store never grows past one round's data.
 *
 * <p>Swapping in a fresh store happens in an invocation-level setup, outside measured time. That is why
 * every benchmark using this state puts a whole batch per invocation ({@code @OperationsPerInvocation});
 * a per-put invocation would drown in JMH's per-invocation timestamps. The swap happens when the next
 * batch would run past the last key, so a batch never wraps except where one batch is larger than the
 * key count (then it overwrites keys of its own round).
 */
@State(Scope.Benchmark)
public class PutRounds {

    private Workload workload;
    private StoreKind kind;
    private StoreConfig config;
    private int batch;
    private int cursor;
    private OpenStore store;
    private byte[] keyBuffer;

    /** Generates the workload and opens the first store. */
    @Setup(Level.Trial)
    public void open(BenchmarkParams params) {
        WorkloadSpec spec = WorkloadSpec.of(params);
        workload = spec.workload();
        kind = spec.store();
        config = spec.config(workload);
        batch = params.getOpsPerInvocation();
        keyBuffer = workload.keyBuffer();
        fresh();
    }

    /** Starts a new round in an empty store when the next batch would not fit the current one. */
    @Setup(Level.Invocation)
    public void roll() {
        if (cursor + batch > workload.keyCount()) {
            fresh();
        }
    }

    private void fresh() {
        close();
        store = OpenStore.create(kind, config);
        cursor = 0;
    }

    /** Closes the last store and deletes its files. */
    @TearDown(Level.Trial)
    public void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }

    /** Claims the positions of the next batch and returns the first one. */
    public int claimBatch() {
        int start = cursor;
        cursor += batch;
        return start;
    }

    /** Puts the next batch ({@code @OperationsPerInvocation} keys) on the calling thread, the only one that may. */
    public void putBatch() {
        StoreAdapter adapter = store.adapter();
        byte[] value = workload.value();
        byte[] key = keyBuffer;
        int n = workload.keyCount();
        int first = claimBatch();
        for (int i = 0; i < batch; i++) {
            adapter.put(workload.fillKey((first + i) % n, key), value);
        }
    }

    /** The current round's store. */
    public StoreAdapter store() {
        return store.adapter();
    }

    /** The workload whose keys are put. */
    public Workload workload() {
        return workload;
    }
}
