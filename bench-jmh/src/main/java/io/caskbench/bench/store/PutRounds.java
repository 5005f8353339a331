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
 * Puts in rounds of every key of the workload, with the work each store defers timed in the round.
 *
 * <p>Two ways to start a round, chosen by the benchmark's optional {@code prefilled} parameter:
 * <ul>
 *   <li>empty (the default): each round goes into a fresh, empty store, so every put inserts a new key
 *       (as in the reference experiment) and the store holds half the keys on average;</li>
 *   <li>prefilled: one store is filled with every key once per trial, outside measured time, and closed
 *       and reopened so the fill's own deferred work is done before timing; every round then replaces
 *       every key, so the store holds all N keys while it is measured (the scale rows).</li>
 * </ul>
 *
 * <p>The batch that completes a round also closes the store, inside measured time: under
 * {@code SyncPolicy.NONE} BitCask forces its segments and writes its hint files there, RocksDB flushes
 * its memtable, H2 writes its last chunk. That cost is amortised over the round's puts, as a store that
 * ran for good would pay it along the way. Deleting the closed store's files and opening the next store
 * are fixtures and run in the next invocation's setup, outside measured time. Deleted files take their
 * dirty pages with them unwritten, so the kernel's write-back is not in these rows; {@link SustainedPut}
 * measures that.
 *
 * <p>Every benchmark using this state puts a whole batch per invocation ({@code @OperationsPerInvocation}):
 * a per-put invocation would drown in JMH's per-invocation timestamps. A batch never wraps except where
 * one batch is larger than the key count (then it puts keys of its own round twice). The keys held
 * midway through each batch are recorded for the {@value KeysInStore#METRIC} metric.
 *
 * <p>Only the benchmark's JMH thread calls the methods of this state; gang threads only put into
 * {@link #store()} between {@link #claimBatch()} and {@link #finishBatch()}.
 */
@State(Scope.Benchmark)
public class PutRounds {

    private Workload workload;
    private StoreKind kind;
    private StoreConfig config;
    private boolean prefilled;
    private int batch;
    /** Position in the fill order of the round's next put. */
    private int cursor;
    private OpenStore store;
    private byte[] keyBuffer;

    /** JMH creates the state and opens it in {@link #open(BenchmarkParams)}. */
    public PutRounds() {
    }

    /** Generates the workload and opens the first store (filling it when prefilled). */
    @Setup(Level.Trial)
    public void open(BenchmarkParams params) {
        open(WorkloadSpec.of(params), params.getOpsPerInvocation(),
                params.getParamsKeys().contains("prefilled") && Boolean.parseBoolean(params.getParam("prefilled")));
    }

    /** {@link #open(BenchmarkParams)} for a spec; for tests. */
    void open(WorkloadSpec spec, int batch, boolean prefilled) {
        workload = spec.workload();
        kind = spec.store();
        config = spec.config(workload);
        this.batch = batch;
        this.prefilled = prefilled;
        keyBuffer = workload.keyBuffer();
        store = OpenStore.create(kind, config);
        if (prefilled) {
            FilledStore.putAll(store.adapter(), workload);
            store.adapter().settle();
            if (store.adapter().persistent()) {
                store.closeAdapter();
                store.reopen();
            }
        }
        cursor = 0;
    }

    /**
     * Opens the next round's store when the last batch closed the previous one, and records the keys
     * the coming batch's store holds midway; not measured.
     */
    @Setup(Level.Invocation)
    public void roll() {
        if (!store.isOpen()) {
            if (prefilled) {
                store.reopen();
            } else {
                store.close();
                store = OpenStore.create(kind, config);
            }
            cursor = 0;
        }
        KeysInStore.record(KeysInStore.midway(prefilled ? workload.keyCount() : 0, cursor, batch,
                workload.keyCount()));
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

    /**
     * Ends the round when the next batch would run past the last key: closes the store, which does its
     * deferred work, in measured time. Call after every batch, from the benchmark method.
     */
    public void finishBatch() {
        if (cursor + batch > workload.keyCount()) {
            if (prefilled && !store.adapter().persistent()) {
                // Nothing deferred and nothing kept through a close: the next round replaces the keys again.
                cursor = 0;
            } else {
                store.closeAdapter();
            }
        }
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
        finishBatch();
    }

    /** Puts the next batch with every thread of {@code gang}; the batch must be the gang's operations. */
    public void putBatch(Gang gang) {
        gang.put(store.adapter(), workload, claimBatch());
        finishBatch();
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
