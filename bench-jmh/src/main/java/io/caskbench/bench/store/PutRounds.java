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
 * Puts in rounds, one round per invocation: the invocation puts {@code batch} keys
 * ({@code @OperationsPerInvocation}) and closes the store, so every measured invocation holds exactly one
 * close, whatever a store's speed and the iteration's length.
 *
 * <p>A round that ended past the iteration's end used to be cut: with rounds of many invocations a slow
 * store (RocksDB, MapDB, H2 at 1M keys) never closed inside measured time while a fast one closed several
 * times per iteration, which compared unlike things. Now JMH counts whole invocations only, each a round
 * with its close, and the throughput score is still puts per second. The suites set the batch to the key
 * count, so a round puts every key once; a smaller batch (only smoke runs) puts the first {@code batch}
 * keys of the fill order.
 *
 * <p>Two ways to start a round, chosen by the benchmark's optional {@code prefilled} parameter:
 * <ul>
 *   <li>empty (the default): each round goes into a fresh, empty store, so every put inserts a new key
 *       (as in the reference experiment) and the store holds half the keys on average;</li>
 *   <li>prefilled: one store is filled with every key once per trial, outside measured time, and closed
 *       and reopened so the fill's own deferred work is done before timing; every round then replaces
 *       keys, so the store holds all N keys while it is measured (the scale rows). A store that keeps
 *       nothing through a close (the heap map, the in-memory reference, the harness) is instead built
 *       and filled again before each round, outside measured time, sized for twice the keys: the
 *       in-memory reference keeps every overwritten record, so it needs room for the fill and one
 *       round of replacements, and round after round of them would fill the heap.</li>
 * </ul>
 *
 * <p>The close at the end of a round is measured: under {@code SyncPolicy.NONE} BitCask forces its
 * segments and writes its hint files there, RocksDB flushes its memtable, H2 writes its last chunk.
 * Deleting the closed store's files and opening the next store are fixtures and run in the next
 * invocation's setup, outside measured time. Deleted files take their dirty pages with them unwritten,
 * so the kernel's write-back is not in these rows; {@link SustainedPut} measures that.
 *
 * <p>Only the benchmark's JMH thread calls the methods of this state; gang threads only put into
 * {@link #store()} during {@link #putBatch(Gang)}.
 */
@State(Scope.Benchmark)
public class PutRounds {

    private Workload workload;
    private StoreKind kind;
    private StoreConfig config;
    private boolean prefilled;
    private int batch;
    private OpenStore store;
    private byte[] keyBuffer;
    /** Rounds ended with their close (or, for a store that keeps nothing through one, marked for a refill). */
    private long roundsClosed;
    /** True when a prefilled store that keeps nothing through a close ended its round: rebuild it untimed. */
    private boolean refill;

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
        if (batch > workload.keyCount()) {
            throw new IllegalArgumentException("a put round of " + batch + " puts is longer than the "
                    + workload.keyCount() + " keys: set the operations per invocation to the key count or fewer");
        }
        kind = spec.store();
        config = spec.config(workload);
        this.batch = batch;
        this.prefilled = prefilled;
        keyBuffer = workload.keyBuffer();
        store = OpenStore.create(kind, config);
        if (prefilled && !store.adapter().persistent()) {
            // Room for the fill and one round of replacements: the in-memory reference appends every
            // overwrite, and sized for the keys alone it would allocate slab chunks inside timed puts.
            config = new StoreConfig(2 * config.expectedKeys(), config.keySize(), config.fixedKeySize(),
                    config.valueSize(), config.maxThreads());
            store.close();
            store = OpenStore.create(kind, config);
        }
        if (prefilled) {
            fill();
        }
        roundsClosed = 0;
        refill = false;
    }

    private void fill() {
        FilledStore.putAll(store.adapter(), workload);
        store.adapter().settle();
        if (store.adapter().persistent()) {
            store.closeAdapter();
            store.reopen();
        }
    }

    /**
     * Opens the next round's store when the last round closed the previous one, and records the keys
     * the round's store holds midway; not measured.
     */
    @Setup(Level.Invocation)
    public void roll() {
        if (refill) {
            // The in-memory reference appends every overwrite and would grow by a round's records per
            // round, zeroing a new slab chunk inside a timed put: start each round from a fresh fill.
            store.close();
            store = OpenStore.create(kind, config);
            fill();
            refill = false;
        } else if (!store.isOpen()) {
            if (prefilled) {
                store.reopen();
            } else {
                store.close();
                store = OpenStore.create(kind, config);
            }
        }
        KeysInStore.record(KeysInStore.midway(prefilled ? workload.keyCount() : 0, 0, batch,
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

    /** Rounds ended so far: one per invocation. */
    long roundsClosed() {
        return roundsClosed;
    }

    /**
     * Ends the round: closes the store, which does its deferred work, in measured time. A prefilled store
     * that keeps nothing through a close defers nothing: it is rebuilt and filled again in the next
     * invocation's setup, outside measured time, so it holds every key and no overwritten record.
     */
    private void endRound() {
        if (prefilled && !store.adapter().persistent()) {
            refill = true;
        } else {
            store.closeAdapter();
        }
        roundsClosed++;
    }

    /** Puts one round ({@code @OperationsPerInvocation} keys) on the calling thread, then closes the store. */
    public void putBatch() {
        StoreAdapter adapter = store.adapter();
        byte[] value = workload.value();
        byte[] key = keyBuffer;
        for (int i = 0; i < batch; i++) {
            adapter.put(workload.fillKey(i, key), value);
        }
        endRound();
    }

    /** Puts one round with every thread of {@code gang}, then closes the store; the round is the gang's operations. */
    public void putBatch(Gang gang) {
        gang.put(store.adapter(), workload, 0);
        endRound();
    }

    /**
     * Ends a round whose puts the caller made itself (the virtual-thread gang): closes the store in measured
     * time, as {@link #putBatch()} does after its own puts.
     */
    public void finishRound() {
        endRound();
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
