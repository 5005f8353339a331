package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The iPod experiment, "reading file information": {@code Files.exists} on a present and an absent path and
 * {@code Files.readAttributes} on a file and on a directory. The seed found the absent check
 * 6x cheaper than the present one on iOS; this asks the same of Java NIO on Linux.
 *
 * <p>Must not measure by accident: building {@link Path} objects (made once per trial and reused,
 * as the seed's own advice says) or a result the JIT could drop (every result is returned to JMH).
 * The metadata is in the dentry and inode caches, so this is the cost of the system call and of
 * the JDK around it, not of the disk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MetadataLookup {

    private Workspace workspace;
    private Path present;
    private Path absent;
    private Path directory;

    /** For JMH. */
    public MetadataLookup() {
    }

    /**
     * Creates one 1 MiB file, one directory, and a name that does not exist.
     *
     * @throws IOException if the fixtures cannot be made
     */
    @Setup(Level.Trial)
    public void create() throws IOException {
        workspace = Workspace.create("metadata");
        present = Workspace.writeRandomFile(workspace.root().resolve("present.bin"), 1 << 20, 3);
        directory = Files.createDirectory(workspace.root().resolve("dir"));
        absent = workspace.root().resolve("absent.bin");
    }

    /** Deletes the fixtures. */
    @TearDown(Level.Trial)
    public void delete() {
        workspace.close();
    }

    /**
     * Files.exists on a file that exists.
     *
     * @return true
     */
    @Benchmark
    public boolean existsPresent() {
        return Files.exists(present);
    }

    /**
     * Files.exists on a name that does not exist.
     *
     * @return false
     */
    @Benchmark
    public boolean existsAbsent() {
        return Files.exists(absent);
    }

    /**
     * Files.readAttributes (basic view) on a regular file.
     *
     * @return the attributes
     * @throws IOException if the file vanished
     */
    @Benchmark
    public BasicFileAttributes attributesFile() throws IOException {
        return Files.readAttributes(present, BasicFileAttributes.class);
    }

    /**
     * Files.readAttributes (basic view) on a directory.
     *
     * @return the attributes
     * @throws IOException if the directory vanished
     */
    @Benchmark
    public BasicFileAttributes attributesDirectory() throws IOException {
        return Files.readAttributes(directory, BasicFileAttributes.class);
    }
}
