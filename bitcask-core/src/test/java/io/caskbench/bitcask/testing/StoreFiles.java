package io.caskbench.bitcask.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The files of a store directory, as the tests look at them. */
public final class StoreFiles {

    private StoreFiles() {
    }

    /** The data files in {@code dir}, oldest first (their names are zero-padded ids). */
    public static List<Path> dataFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".data")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
