package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The iPod experiment, "hard and symbolic links": a new hard link and a new symbolic link to a 1 MiB file,
 * the cheap alternatives to a copy. Neither should depend on the file size.
 *
 * <p>Must not measure by accident: creating the linked file (once per trial) or removing the
 * links (after each batch).
 */
public class FileLink extends BatchedFileOperation {

    /** Size of the linked file. */
    public static final int SIZE = 1 << 20;

    private Path source;
    private Path[] links;

    /** For JMH. */
    public FileLink() {
    }

    @Override
    protected void prepareTrial(Path trialDir) {
        source = Workspace.writeRandomFile(trialDir.resolve("source.bin"), SIZE, 30);
    }

    @Override
    protected void prepare(int count) {
        links = names("link", count);
    }

    /**
     * Files.createLink (a hard link).
     *
     * @return the link
     * @throws IOException if linking fails
     */
    @Benchmark
    public Path hardLink() throws IOException {
        return Files.createLink(links[nextIndex()], source);
    }

    /**
     * Files.createSymbolicLink to the file's absolute path.
     *
     * @return the link
     * @throws IOException if linking fails
     */
    @Benchmark
    public Path symbolicLink() throws IOException {
        return Files.createSymbolicLink(links[nextIndex()], source);
    }
}
