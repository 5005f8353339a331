package io.caskbench.bitcask.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A scratch directory in memory ({@code /dev/shm}) when the machine has one, else under a given
 * directory. For tests that open thousands of stores and never lose power: there the file
 * system's durability does not matter, and on a disk every real force of a segment, a hint file
 * or a directory costs milliseconds.
 */
public final class ScratchDir implements AutoCloseable {

    private static final Path SHM = Path.of("/dev/shm");

    private final Path path;

    private ScratchDir(Path path) {
        this.path = path;
    }

    /** A fresh directory, in memory if possible, else under {@code fallback}. */
    public static ScratchDir create(Path fallback, String prefix) {
        try {
            Path parent = Files.isDirectory(SHM) && Files.isWritable(SHM) ? SHM : fallback;
            return new ScratchDir(Files.createTempDirectory(parent, prefix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The directory. */
    public Path path() {
        return path;
    }

    /** Deletes a file or a directory tree if it exists. */
    public static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the directory and everything in it. */
    @Override
    public void close() {
        deleteTree(path);
    }
}
