package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreConfig;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What a store benchmark runs, read from its JMH parameters so that the shared fixtures work for every
 * benchmark class whatever parameters it declares.
 *
 * <p>Parameter names: {@code store} (a {@link StoreKind}) or {@code backend} ({@code MAPPED} or
 * {@code FILE_CHANNEL}, meaning BitCask with that backend); {@code keyCount}, {@code valueSize},
 * {@code order} for the db_bench workload; {@code workload=SEED} for the reference experiment's keys and values.
 *
 * @param store the store to open
 * @param keyCount number of distinct keys
 * @param valueSize value length; ignored by the seed workload, whose value is a serialized record
 * @param order key visiting order
 * @param seed true for the reference experiment's {@code object<i>.png} keys and Protostuff values
 */
public record WorkloadSpec(StoreKind store, int keyCount, int valueSize, KeyOrder order, boolean seed) {

    /** Key count of the reference experiment (a Java BitCask): 1M puts, then 1M gets; 1000 threads x 1000 operations. */
    public static final int SEED_KEYS = 1_000_000;

    /** Reader slots and similar per-thread resources are sized for this many threads. */
    public static final int MAX_THREADS = 1_024;

    /** Reads the spec of the running benchmark. */
    public static WorkloadSpec of(BenchmarkParams params) {
        StoreKind store = params.getParamsKeys().contains("backend")
                ? StoreKind.valueOf("BITCASK_" + params.getParam("backend"))
                : StoreKind.valueOf(params.getParam("store"));
        boolean seed = "SEED".equals(optional(params, "workload", "DECIMAL"));
        int keyCount = Integer.parseInt(optional(params, "keyCount", String.valueOf(SEED_KEYS)));
        int valueSize = Integer.parseInt(optional(params, "valueSize", "100"));
        KeyOrder order = KeyOrder.valueOf(optional(params, "order", KeyOrder.SEQUENTIAL.name()));
        return new WorkloadSpec(store, keyCount, valueSize, order, seed);
    }

    private static String optional(BenchmarkParams params, String key, String fallback) {
        return params.getParamsKeys().contains(key) ? params.getParam(key) : fallback;
    }

    /** Generates the keys, order and value (not timed by JMH: only fixtures call this). */
    public Workload workload() {
        return seed ? Workload.seed(keyCount) : Workload.decimal(keyCount, valueSize, order);
    }

    /** The sizing hints for {@link StoreKind#open}. */
    public StoreConfig config(Workload workload) {
        return new StoreConfig(workload.keyCount(), workload.keySize(), workload.fixedKeySize(),
                workload.value().length, MAX_THREADS);
    }
}
