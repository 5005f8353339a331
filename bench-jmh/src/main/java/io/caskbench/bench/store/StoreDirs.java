package io.caskbench.bench.store;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.caskbench.bench.store.adapter.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Scratch directories for store files: under {@code -Dcaskbench.data} when set, else the system temp
 * directory. Each trial gets its own directory and deletes it when done.
 *
 * <p>A benchmark that fails (a store error, a 1000-thread run stopped at its time limit) ends its fork
 * without JMH's trial teardown, so every directory not yet deleted is also deleted when the fork's JVM
 * exits; otherwise each failure would leave up to gigabytes behind.
 */
public final class StoreDirs {

    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Path dir : LIVE) {
                try {
                    delete(dir);
                } catch (RuntimeException e) {
                    System.err.println("could not delete " + dir + ": " + e);
                }
            }
        }, "store-dirs-cleanup"));
    }

    private StoreDirs() {
    }

    /** Creates a new empty directory for one store. */
    public static Path create(StoreKind kind) {
        return create(kind.name().toLowerCase(Locale.ROOT));
    }

    /** Creates a new empty directory whose name starts with {@code caskbench-<label>-}. */
    public static Path create(String label) {
        try {
            Path base = Path.of(System.getProperty("caskbench.data", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(base);
            Path dir = Files.createTempDirectory(base, "caskbench-" + label + "-");
            LIVE.add(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes one file, or one folder with everything in it, inside a store's directory. */
    static void deleteEntry(Path entry) throws IOException {
        if (Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            MoreFiles.deleteRecursively(entry, RecursiveDeleteOption.ALLOW_INSECURE);
        } else {
            Files.deleteIfExists(entry);
        }
    }

    /** Deletes {@code dir} and everything in it; a missing directory is fine. */
    public static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            if (Files.exists(dir)) {
                MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
            }
            LIVE.remove(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
