package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The iPod experiment, "creating files": a new empty file, and a new file holding 1 MiB, where nothing
 * existed. Exists to show what the creation itself costs against writing data into the file.
 *
 * <p>Must not measure by accident: making the name free (each operation gets its own name in a
 * fresh batch directory) or deleting the result (after the batch). Nothing is forced to disk:
 * this is the cost a program pays before write-back, as in the seed.
 */
public class FileCreation extends BatchedFileOperation {

    /** Bytes written by {@link #createOneMiB()}. */
    public static final int ONE_MIB = 1 << 20;

    private final byte[] content = Workspace.randomBytes(ONE_MIB, 7);
    private Path[] targets;

    /** For JMH. */
    public FileCreation() {
    }

    @Override
    protected void prepare(int count) {
        targets = names("new", count);
    }

    /**
     * Files.createFile: an empty file.
     *
     * @return the new file
     * @throws IOException if the file exists or cannot be made
     */
    @Benchmark
    public Path createEmpty() throws IOException {
        return Files.createFile(targets[nextIndex()]);
    }

    /**
     * Files.write with CREATE_NEW: a new file with 1 MiB in it.
     *
     * @return the new file
     * @throws IOException if the file exists or cannot be written
     */
    @Benchmark
    public Path createOneMiB() throws IOException {
        return Files.write(targets[nextIndex()], content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
}
