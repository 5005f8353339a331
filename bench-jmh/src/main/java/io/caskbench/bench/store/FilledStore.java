package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.adapter.StoreConfig;
import io.caskbench.bench.store.workload.Workload;
import java.util.Optional;
import java.util.OptionalLong;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A store filled with every key of the workload once per trial, for benchmarks that read (and, in the
 * mixed workload, overwrite). Filling is not measured; after filling, the store is settled, closed and
 * reopened, and its {@link Footprint} is published. Within one suite invocation a persistent store is
 * filled once and later forks start from a copy of its closed files ({@link FillCache}).
 *
 * <p>Shared by all threads of a benchmark ({@code Scope.Benchmark}), so JMH's own multi-threaded
 * cross-check reads one store too.
 */
@State(Scope.Benchmark)
public class FilledStore {

    private Workload workload;
    private OpenStore store;
    private StoreAdapter adapter;
    /** Whether the store was copied from the {@link FillCache} rather than filled; for tests. */
    private boolean fromCache;

    /** JMH creates the state and fills it in {@link #fill(BenchmarkParams)}. */
    public FilledStore() {
    }

    /** A state around a store the caller opened, filled here as the trial setup fills it; for tests. */
    FilledStore(Workload workload, StoreAdapter adapter) {
        this.workload = workload;
        this.adapter = adapter;
        putAll(adapter, workload);
    }

    /**
     * Generates the workload, opens a fresh store and puts every key; then measures its footprint with
     * its background work done ({@link #measure}).
     */
    @Setup(Level.Trial)
    public void fill(BenchmarkParams params) {
        fill(WorkloadSpec.of(params));
    }

    /** {@link #fill(BenchmarkParams)} for a spec; the footprint tests call it directly. */
    void fill(WorkloadSpec spec) {
        workload = spec.workload();
        warmUpLibrary(spec);
        long heapBefore = Footprint.liveHeap();
        store = OpenStore.create(spec.store(), spec.config(workload));
        adapter = store.adapter();
        Optional<FillCache> cache = adapter.persistent() ? FillCache.configured(spec) : Optional.empty();
        String key = FillCache.key(spec);
        OptionalLong cached = cache.map(c -> c.diskBytes(key)).orElse(OptionalLong.empty());
        long disk;
        if (cached.isPresent()) {
            // An earlier fork of this invocation filled the same store: its files, closed and settled,
            // are what this fork's fill, close and reopen would make.
            store.replaceFiles(cache.get().files(key));
            disk = cached.getAsLong();
            fromCache = true;
        } else {
            putAll(adapter, workload);
            adapter.settle();
            // A store that keeps files is closed (which waits for its background work), its directory
            // measured (and kept for later forks), and opened again for the gets.
            disk = adapter.persistent()
                    ? store.closeMeasureReopen((dir, bytes) -> cache.ifPresent(c -> c.save(key, dir, bytes)))
                    : Footprint.diskBytes(store.dir());
        }
        measure(heapBefore, disk);
    }

    /**
     * Every key is read once, which checks that the (re)opened store has them all and fills its caches,
     * and the heap is measured.
     */
    private void measure(long heapBefore, long disk) {
        adapter = store.adapter();
        byte[] key = workload.keyBuffer();
        for (int i = 0; i < workload.keyCount(); i++) {
            Reads.get(adapter, workload, i, key);
        }
        Footprint.publish(heapBefore, adapter, disk, workload.keyCount());
    }

    /** Puts every key of the workload, in its fill order. */
    static void putAll(StoreAdapter adapter, Workload workload) {
        byte[] value = workload.value();
        byte[] key = workload.keyBuffer();
        for (int i = 0; i < workload.keyCount(); i++) {
            adapter.put(workload.fillKey(i, key), value);
        }
    }

    /**
     * Opens, uses and drops a tiny store of the same kind first, so that the library's one-off class
     * loading and static caches are not counted as heap per key.
     */
    private static void warmUpLibrary(WorkloadSpec spec) {
        try (OpenStore tiny = OpenStore.create(spec.store(), new StoreConfig(16, 16, true, 16, 4))) {
            tiny.adapter().put(new byte[16], new byte[16]);
            tiny.adapter().get(new byte[16]);
        }
    }

    /** Closes the store and deletes its files. */
    @TearDown(Level.Trial)
    public void close() {
        if (store != null) {
            store.close();
        }
    }

    /** Whether the store's files were copied from an earlier fork's fill. */
    boolean fromCache() {
        return fromCache;
    }

    /** The directory of the filled store. */
    java.nio.file.Path dir() {
        return store.dir();
    }

    /** The filled store. */
    public StoreAdapter store() {
        return adapter;
    }

    /** The workload it was filled with. */
    public Workload workload() {
        return workload;
    }
}
