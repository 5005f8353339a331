package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The iPod experiment, "deleting files": Files.delete of a 1 MiB file that is on disk.
 *
 * <p>Must not measure by accident: creating the victims (before the batch). They are forced to
 * disk first, because deleting a file whose data was never written back skips freeing its
 * blocks and would look cheaper than deleting an old file.
 */
public class FileDelete extends BatchedFileOperation {

    /** Size of each deleted file. */
    public static final int SIZE = 1 << 20;

    private Path[] victims;

    /** For JMH. */
    public FileDelete() {
    }

    @Override
    protected void prepare(int count) {
        victims = names("victim", count);
        for (int i = 0; i < count; i++) {
            Workspace.writeRandomFile(victims[i], SIZE, 20 + i);
        }
    }

    /**
     * Files.delete.
     *
     * @throws IOException if the delete fails
     */
    @Benchmark
    public void delete() throws IOException {
        Files.delete(victims[nextIndex()]);
    }
}
