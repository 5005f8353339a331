package io.caskbench.bench.store;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.caskbench.bench.store.adapter.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Scratch directories for store files: under {@code -Dcaskbench.data} when set, else the system temp
 * directory. Each trial gets its own directory and deletes it when done.
 */
final class StoreDirs {

    private StoreDirs() {
    }

    /** Creates a new empty directory for one store. */
    static Path create(StoreKind kind) {
        try {
            Path base = Path.of(System.getProperty("caskbench.data", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, "caskbench-" + kind.name().toLowerCase(Locale.ROOT) + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything in it; a missing directory is fine. */
    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
