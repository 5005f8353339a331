package io.caskbench.bench.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Filled stores kept for the length of one suite invocation, so that each persistent store is filled
 * once and every later fork that reads it starts from a copy of its files: at 1M keys a fill takes
 * longer than the fork's measurement. The runner names the folder with {@code -Dcaskbench.fillCache}
 * and deletes it when the invocation ends; without the property every fork fills its own store.
 *
 * <p>An entry is the closed store's files and their allocated bytes as measured when it was filled (a
 * copy allocates preallocated or sparse files differently). It appears in one rename, so a fork never
 * sees half an entry; forks run one after another, and a second writer of the same entry loses the
 * rename and discards its copy. A cache that cannot be written costs only the time it would have saved.
 */
final class FillCache {

    /** The system property naming the cache's folder. */
    static final String PROPERTY = io.caskbench.bench.BenchMain.FILL_CACHE;

    /**
     * Largest store kept: a copy of every persistent store at 10M keys would take several times the disk
     * of the run itself, so the scale suite's largest stores are filled by each fork.
     */
    static final int MAX_KEYS = 1_000_000;

    private static final String FILES = "store";
    private static final String DISK_BYTES = "disk-bytes";

    private final Path root;

    FillCache(Path root) {
        this.root = root;
    }

    /** The cache {@code -Dcaskbench.fillCache} names, if any, for a store filled by {@code spec}. */
    static Optional<FillCache> configured(WorkloadSpec spec) {
        String dir = System.getProperty(PROPERTY, "");
        return dir.isBlank() || spec.keyCount() > MAX_KEYS ? Optional.empty() : Optional.of(new FillCache(Path.of(dir)));
    }

    /** The entry's name for a store filled by {@code spec}: everything that decides its files. */
    static String key(WorkloadSpec spec) {
        return (spec.store() + "-" + spec.keyCount() + "-" + spec.valueSize() + "-" + spec.order()
                + (spec.seed() ? "-seed" : "")).replaceAll("[^A-Za-z0-9_-]", "_");
    }

    /** The filled store's allocated bytes when the cache holds {@code key}; empty otherwise. */
    OptionalLong diskBytes(String key) {
        Path bytes = root.resolve(key).resolve(DISK_BYTES);
        try {
            return Files.isRegularFile(bytes)
                    ? OptionalLong.of(Long.parseLong(Files.readString(bytes, StandardCharsets.UTF_8).trim()))
                    : OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The files of entry {@code key}. */
    Path files(String key) {
        return root.resolve(key).resolve(FILES);
    }

    /** Keeps a copy of the closed store in {@code dir} as entry {@code key}, unless it is there already. */
    void save(String key, Path dir, long diskBytes) {
        Path entry = root.resolve(key);
        if (Files.exists(entry)) {
            return;
        }
        Path tmp = root.resolve("." + key + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        try {
            copyTree(dir, tmp.resolve(FILES));
            Files.writeString(tmp.resolve(DISK_BYTES), Long.toString(diskBytes), StandardCharsets.UTF_8);
            Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            StoreDirs.delete(tmp);
        } catch (IOException | UncheckedIOException e) {
            System.err.println("caskbench: could not keep the filled store " + key + " for later forks: " + e);
            StoreDirs.delete(tmp);
        }
    }

    /** Copies every file under {@code from} to the same place under {@code to}, creating folders. */
    static void copyTree(Path from, Path to) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(from)) {
            all = walk.toList();
        }
        for (Path p : all) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
