package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * The iPod experiment, "copying files": Files.copy of a 1 MiB and a 2 MiB file to a new name. Exists to show
 * that, unlike a move or a link, a copy costs in proportion to the size.
 *
 * <p>Must not measure by accident: writing the source (once per trial, forced to disk and then
 * warm in the page cache) or deleting the copies (after the batch). The copies are not forced to
 * disk. How the JDK copies (read/write loop or an in-kernel copy) depends on the JDK version.
 */
public class FileCopy extends BatchedFileOperation {

    /** Size of the file copied; the seed used 1 MB and 2 MB. */
    @Param({"1048576", "2097152"})
    public int copySize;

    private Path source;
    private Path[] copies;

    /** For JMH. */
    public FileCopy() {
    }

    @Override
    protected void prepareTrial(Path trialDir) {
        source = Workspace.writeRandomFile(trialDir.resolve("source.bin"), copySize, 9);
    }

    @Override
    protected void prepare(int count) {
        copies = names("copy", count);
    }

    /**
     * Files.copy to a name that does not exist.
     *
     * @return the copy
     * @throws IOException if copying fails
     */
    @Benchmark
    public Path copy() throws IOException {
        return Files.copy(source, copies[nextIndex()]);
    }
}
