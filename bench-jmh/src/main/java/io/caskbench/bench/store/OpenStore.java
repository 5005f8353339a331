package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.adapter.StoreConfig;
import io.caskbench.bench.store.adapter.StoreKind;
import java.nio.file.Path;

/** A store opened in its own scratch directory, deleted with it. */
final class OpenStore implements AutoCloseable {

    private final Path dir;
    private final StoreKind kind;
    private final StoreConfig config;
    private StoreAdapter adapter;

    private OpenStore(Path dir, StoreKind kind, StoreConfig config, StoreAdapter adapter) {
        this.dir = dir;
        this.kind = kind;
        this.config = config;
        this.adapter = adapter;
    }

    /** Opens an empty store of {@code kind} in a new scratch directory. */
    static OpenStore create(StoreKind kind, StoreConfig config) {
        Path dir = StoreDirs.create(kind);
        try {
            return new OpenStore(dir, kind, config, kind.open(dir, config));
        } catch (RuntimeException e) {
            StoreDirs.delete(dir);
            throw e;
        }
    }

    /**
     * Closes the store, which finishes its background work (BitCask writes every hint file, RocksDB waits
     * for its flushes and compactions, H2 MVStore writes its last chunk), measures the directory's
     * allocated bytes while nothing can write to it, and opens the store again on the same files.
     *
     * @return the allocated bytes of the closed store's directory
     */
    long closeMeasureReopen() {
        return closeMeasureReopen((closed, bytes) -> { });
    }

    /** {@link #closeMeasureReopen()}, handing the closed directory and its bytes to {@code whileClosed}. */
    long closeMeasureReopen(java.util.function.ObjLongConsumer<Path> whileClosed) {
        adapter.close();
        adapter = null;
        long bytes = Footprint.diskBytes(dir);
        whileClosed.accept(dir, bytes);
        adapter = kind.open(dir, config);
        return bytes;
    }

    /** Closes the store, replaces its files with a copy of those under {@code source}, and opens it again. */
    void replaceFiles(Path source) {
        adapter.close();
        adapter = null;
        try (java.util.stream.Stream<Path> old = java.nio.file.Files.list(dir)) {
            for (Path p : old.toList()) {
                StoreDirs.deleteEntry(p);
            }
            FillCache.copyTree(source, dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot copy the filled store " + source + " into " + dir, e);
        }
        adapter = kind.open(dir, config);
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
            if (adapter != null) {
                adapter.close();
            }
        } finally {
            StoreDirs.delete(dir);
        }
    }
}
