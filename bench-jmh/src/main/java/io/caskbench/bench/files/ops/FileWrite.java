package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * The iPod experiment, "writeToFile atomically: YES / NO": write a whole file plainly (truncate in place) or
 * atomically (write a temporary file beside it, then rename it over the target with
 * {@code ATOMIC_MOVE}), when the target does not exist yet and when it does.
 *
 * <p>Must not measure by accident: preparing the targets (existing targets are written and forced
 * to disk before the batch, as a file that has been there a while) or removing them (after the
 * batch). Neither variant forces data to disk, as in the seed; a crash-safe replace would also
 * need {@code force} on the temporary file before the rename, which costs a disk flush.
 */
public class FileWrite extends BatchedFileOperation {

    /** Bytes written: 0 or 1 MiB in the seed. */
    @Param({"0", "1048576"})
    public int writeSize;

    /** Whether the target exists before the write: {@code absent} or {@code present}. */
    @Param({"absent", "present"})
    public String target;

    private byte[] content;
    private Path[] targets;
    private Path[] temporaries;

    /** For JMH. */
    public FileWrite() {
    }

    @Override
    protected void prepareTrial(Path trialDir) {
        content = Workspace.randomBytes(writeSize, 8);
    }

    @Override
    protected void prepare(int count) {
        targets = names("target", count);
        temporaries = names("target.tmp", count);
        switch (target) {
            case "absent":
                break;
            case "present":
                for (int i = 0; i < count; i++) {
                    Workspace.writeRandomFile(targets[i], writeSize, 80 + i);
                }
                break;
            default:
                throw new IllegalArgumentException("target must be absent or present, not " + target);
        }
    }

    /**
     * Files.write with the default options (create or truncate, then write).
     *
     * @return the written file
     * @throws IOException if writing fails
     */
    @Benchmark
    public Path plain() throws IOException {
        return Files.write(targets[nextIndex()], content);
    }

    /**
     * Files.write to a new temporary file, then Files.move with ATOMIC_MOVE over the target.
     *
     * @return the written file
     * @throws IOException if writing or renaming fails
     */
    @Benchmark
    public Path atomic() throws IOException {
        int i = nextIndex();
        Files.write(temporaries[i], content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return Files.move(temporaries[i], targets[i], StandardCopyOption.ATOMIC_MOVE);
    }
}
