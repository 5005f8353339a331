package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The iPod experiment, "traversing files": enumerate a directory of 10,000 files (one level), or that
 * directory plus a subdirectory holding 10,000 more (two levels), with each Java API.
 *
 * <p>With one level, the listing APIs ({@code Files.list}, {@code newDirectoryStream},
 * {@code File.listFiles}) only read names, while {@code Files.walk} and {@code walkFileTree}
 * cannot help reading every entry's attributes: that difference is part of the answer. With two
 * levels every API must tell directories from files, so the listing APIs recurse and check
 * {@code isDirectory} on every entry, like a real recursive walk would.
 *
 * <p>Must not measure by accident: creating the tree (per trial), or a traversal the JIT could
 * cut short (each returns the entry count, which is checked against the tree). Directory entries
 * and inodes stay in the kernel's caches, as they would for a directory a program lists often.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DirectoryTraversal {

    /** Files per directory level; the seed used 10,000. */
    @Param("10000")
    public int filesPerLevel;

    /** 1: one flat directory; 2: the same plus a subdirectory with as many files. */
    @Param({"1", "2"})
    public int levels;

    private Workspace workspace;
    private Path top;
    private int expectedEntries;

    /** For JMH. */
    public DirectoryTraversal() {
    }

    /**
     * Creates the tree of empty files.
     *
     * @throws IOException if a file cannot be created
     */
    @Setup(Level.Trial)
    public void createTree() throws IOException {
        if (levels != 1 && levels != 2) {
            throw new IllegalArgumentException("levels must be 1 or 2");
        }
        workspace = Workspace.create("traversal");
        top = Files.createDirectory(workspace.root().resolve("top"));
        Path dir = top;
        for (int level = 0; level < levels; level++) {
            for (int i = 0; i < filesPerLevel; i++) {
                Files.createFile(dir.resolve("file-" + i + ".dat"));
            }
            if (level + 1 < levels) {
                dir = Files.createDirectory(dir.resolve("sub"));
            }
        }
        // Files plus the subdirectory entry itself.
        expectedEntries = filesPerLevel * levels + (levels - 1);
    }

    /** Deletes the tree. */
    @TearDown(Level.Trial)
    public void deleteTree() {
        workspace.close();
    }

    private int check(int entries) {
        if (entries != expectedEntries) {
            throw new IllegalStateException("saw " + entries + " entries, expected " + expectedEntries);
        }
        return entries;
    }

    private boolean recurse() {
        return levels > 1;
    }

    /**
     * Files.list (a lazy stream over the directory).
     *
     * @return entries seen
     * @throws IOException if listing fails
     */
    @Benchmark
    public int filesList() throws IOException {
        return check(countWithList(top));
    }

    private int countWithList(Path dir) throws IOException {
        int count = 0;
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                count++;
                if (recurse() && Files.isDirectory(entry)) {
                    count += countWithList(entry);
                }
            }
        }
        return count;
    }

    /**
     * Files.newDirectoryStream.
     *
     * @return entries seen
     * @throws IOException if listing fails
     */
    @Benchmark
    public int directoryStream() throws IOException {
        return check(countWithDirectoryStream(top));
    }

    private int countWithDirectoryStream(Path dir) throws IOException {
        int count = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                count++;
                if (recurse() && Files.isDirectory(entry)) {
                    count += countWithDirectoryStream(entry);
                }
            }
        }
        return count;
    }

    /**
     * Files.walk, as deep as the tree.
     *
     * @return entries seen, not counting the top directory
     * @throws IOException if walking fails
     */
    @Benchmark
    public int filesWalk() throws IOException {
        try (Stream<Path> entries = Files.walk(top, levels)) {
            return check((int) entries.count() - 1);
        }
    }

    /**
     * Files.walkFileTree with a visitor that counts, as deep as the tree.
     *
     * @return entries seen, not counting the top directory
     * @throws IOException if walking fails
     */
    @Benchmark
    public int walkFileTree() throws IOException {
        int[] count = {0};
        Files.walkFileTree(top, EnumSet.noneOf(java.nio.file.FileVisitOption.class), levels,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        count[0]++;
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        count[0]++;
                        return FileVisitResult.CONTINUE;
                    }
                });
        return check(count[0] - 1);
    }

    /**
     * java.io.File.listFiles.
     *
     * @return entries seen
     */
    @Benchmark
    public int fileListFiles() {
        return check(countWithListFiles(top.toFile()));
    }

    private int countWithListFiles(File dir) {
        File[] entries = dir.listFiles();
        if (entries == null) {
            throw new IllegalStateException("cannot list " + dir);
        }
        int count = entries.length;
        if (recurse()) {
            for (File entry : entries) {
                if (entry.isDirectory()) {
                    count += countWithListFiles(entry);
                }
            }
        }
        return count;
    }
}
