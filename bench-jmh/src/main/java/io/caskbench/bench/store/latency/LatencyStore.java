package io.caskbench.bench.store.latency;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The latency benchmarks' store: a fresh BitCask store in its own folder, {@code SyncPolicy.NONE}, no
 * automatic merge, every key of the workload written {@code rounds} times and then forced, so a
 * measurement starts settled (and, with two rounds, with half the store dead for a merge to remove).
 * A latency run may also {@link #mergeBackToBack merge it back to back}. Threading: opened, merged and closed
 * by the trial's setup and teardown; the store itself is thread-safe.
 */
final class LatencyStore implements AutoCloseable {

    private final Path dir;
    private final BitCask db;
    /** The merge running beside the foreground, or null; set and cleared by the trial's thread. */
    private BackToBackMerge merger;

    private LatencyStore(Path dir, BitCask db) {
        this.dir = dir;
        this.db = db;
    }

    /** Opens and fills a store, with {@code tune} setting any further option (a value size, merge pacing). */
    static LatencyStore fill(Backend backend, Workload workload, int rounds,
            UnaryOperator<BitCaskOptions.Builder> tune) {
        Path dir = StoreDirs.create(StoreKind.of(backend));
        BitCask db = BitCask.open(dir, tune.apply(BitCaskOptions.builder().backend(backend)
                .syncPolicy(SyncPolicy.NONE).expectedKeys(workload.keyCount()).autoMerge(false)).build());
        byte[] key = workload.keyBuffer();
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < workload.keyCount(); i++) {
                db.put(workload.fillKey(i, key), workload.value());
            }
        }
        db.sync();
        return new LatencyStore(dir, db);
    }

    /** The open store. */
    BitCask db() {
        return db;
    }

    /** Starts a merge running back to back beside the foreground, until {@link #close}. */
    void mergeBackToBack() {
        merger = BackToBackMerge.start(db);
    }

    /** Merges completed so far by {@link #mergeBackToBack}; 0 without one. */
    long merges() {
        return merger == null ? 0 : merger.merges();
    }

    /**
     * Stops the merge, if one runs, then closes the store and deletes its folder; fails when a merge failed or
     * none completed, as such a run measured nothing.
     */
    @Override
    public void close() {
        if (merger != null) {
            merger.stop();
        }
        db.close();
        StoreDirs.delete(dir);
        if (merger != null) {
            merger.verify();
        }
    }
}
