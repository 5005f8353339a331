package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.adapter.StoreConfig;
import io.caskbench.bench.store.adapter.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.ObjLongConsumer;
import java.util.stream.Stream;

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
    long closeMeasureReopen(ObjLongConsumer<Path> whileClosed) {
        closeAdapter();
        long bytes = Footprint.diskBytes(dir);
        whileClosed.accept(dir, bytes);
        reopen();
        return bytes;
    }

    /**
     * Closes the store and keeps its files: the store's deferred work (forces, hint files, flushes,
     * compactions) happens here. Does nothing when it is already closed.
     */
    void closeAdapter() {
        if (adapter != null) {
            StoreAdapter closing = adapter;
            adapter = null;
            closing.close();
        }
    }

    /** True while the store is open. */
    boolean isOpen() {
        return adapter != null;
    }

    /** Closes the store, replaces its files with a copy of those under {@code source}, and opens it again. */
    void replaceFiles(Path source) {
        closeAdapter();
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.toList()) {
                StoreDirs.deleteEntry(p);
            }
            FillCache.copyTree(source, dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the filled store " + source + " into " + dir, e);
        }
        reopen();
    }

    /** Opens the closed store again on the same files. */
    void reopen() {
        if (adapter != null) {
            throw new IllegalStateException("the store in " + dir + " is open");
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
            closeAdapter();
        } finally {
            StoreDirs.delete(dir);
        }
    }
}
