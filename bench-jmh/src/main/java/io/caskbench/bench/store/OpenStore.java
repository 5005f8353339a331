package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.adapter.StoreConfig;
import io.caskbench.bench.store.adapter.StoreKind;
import java.nio.file.Path;

/** A store opened in its own scratch directory, deleted with it. */
final class OpenStore implements AutoCloseable {

    private final Path dir;
    private final StoreAdapter adapter;

    private OpenStore(Path dir, StoreAdapter adapter) {
        this.dir = dir;
        this.adapter = adapter;
    }

    /** Opens an empty store of {@code kind} in a new scratch directory. */
    static OpenStore create(StoreKind kind, StoreConfig config) {
        Path dir = StoreDirs.create(kind);
        try {
            return new OpenStore(dir, kind.open(dir, config));
        } catch (RuntimeException e) {
            StoreDirs.delete(dir);
            throw e;
        }
    }

    /** The store. */
    StoreAdapter adapter() {
        return adapter;
    }

    /** Its directory. */
    Path dir() {
        return dir;
    }

    /** Closes the store and deletes its directory. */
    @Override
    public void close() {
        try {
            adapter.close();
        } finally {
            StoreDirs.delete(dir);
        }
    }
}
