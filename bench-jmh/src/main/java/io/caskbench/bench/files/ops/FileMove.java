package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The iPod experiment, "moving files": Files.move of a 1 MiB file to a new name in the same directory,
 * which is a rename and should not depend on the size.
 *
 * <p>Must not measure by accident: creating the sources (before the batch, forced to disk) or
 * deleting the moved files (after it).
 */
public class FileMove extends BatchedFileOperation {

    /** Size of each moved file. */
    public static final int SIZE = 1 << 20;

    private Path[] sources;
    private Path[] destinations;

    /** For JMH. */
    public FileMove() {
    }

    @Override
    protected void prepare(int count) {
        sources = names("source", count);
        destinations = names("moved", count);
        for (int i = 0; i < count; i++) {
            Workspace.writeRandomFile(sources[i], SIZE, 10 + i);
        }
    }

    /**
     * Files.move to a free name in the same directory.
     *
     * @return the new path
     * @throws IOException if the move fails
     */
    @Benchmark
    public Path move() throws IOException {
        int i = nextIndex();
        return Files.move(sources[i], destinations[i]);
    }
}
