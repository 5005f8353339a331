package io.caskbench.bench.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Benchmarks stopped at the gang's time limit leave no JMH result, only a failure in the log. Each
 * writes one line here instead (from the benchmark fork, which inherits {@code -Dcaskbench.results}),
 * so the comparison can say how far the store got.
 */
public final class StoppedRuns {

    /** File name in the results folder. */
    public static final String FILE = "store-stopped.txt";

    private StoppedRuns() {
    }

    private static Path file() {
        return Path.of(System.getProperty("caskbench.results", "results")).resolve(FILE);
    }

    /** Appends one line. */
    static synchronized void record(String line) {
        try {
            Files.createDirectories(file().toAbsolutePath().getParent());
            Files.writeString(file(), line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets the lines of an earlier run in {@code results}. */
    public static void clear(Path results) {
        try {
            Files.deleteIfExists(results.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines recorded in {@code results}, oldest first. */
    public static List<String> read(Path results) {
        Path path = results.resolve(FILE);
        try {
            return Files.exists(path) ? Files.readAllLines(path, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
