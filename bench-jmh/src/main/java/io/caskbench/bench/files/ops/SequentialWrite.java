package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * The iPod experiment, "writing with a file handle": write a new file of {@code writeTotalMb} in chunks of
 * {@code writeChunkKb}, calling {@link FileChannel#force} after every chunk or once at the end. Both
 * variants end with the data on disk, so they compare the cost of flushing often against once.
 *
 * <p>Must not measure by accident: opening, closing or deleting the file (per iteration, outside
 * the timer) or generating the data (one random chunk, made per trial and written repeatedly).
 * Each operation writes a fresh file once, so there is no steady state: every iteration is a
 * single shot.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class SequentialWrite {

    /** Size of the file written per operation, in MiB; the seed wrote 1 GB. */
    @Param("1024")
    public int writeTotalMb;

    /** Bytes per write call, in KiB; the seed went from 512 KB to 8 MB. */
    @Param({"512", "1024", "2048", "4096", "8192"})
    public int writeChunkKb;

    /** {@code each}: force after every chunk; {@code end}: force once after the last chunk. */
    @Param({"each", "end"})
    public String force;

    private Workspace workspace;
    private ByteBuffer chunk;
    private boolean forceEach;
    private Path file;
    private FileChannel channel;
    private int iteration;

    /** For JMH. */
    public SequentialWrite() {
    }

    /** Makes the chunk of data and the scratch directory. */
    @Setup(Level.Trial)
    public void createChunk() {
        if ((writeTotalMb * 1024L) % writeChunkKb != 0) {
            throw new IllegalArgumentException("writeTotalMb must be a whole number of chunks");
        }
        switch (force) {
            case "each":
                forceEach = true;
                break;
            case "end":
                forceEach = false;
                break;
            default:
                throw new IllegalArgumentException("force must be each or end, not " + force);
        }
        workspace = Workspace.create("sequential-write");
        chunk = ByteBuffer.allocateDirect(writeChunkKb * 1024);
        SplittableRandom random = new SplittableRandom(11);
        while (chunk.hasRemaining()) {
            chunk.putLong(random.nextLong());
        }
    }

    /**
     * Opens a new empty file for the coming operation.
     *
     * @throws IOException if the file cannot be created
     */
    @Setup(Level.Iteration)
    public void openFile() throws IOException {
        file = workspace.root().resolve("written-" + iteration++ + ".bin");
        channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /**
     * Checks the size, then closes and deletes the file.
     *
     * @throws IOException if closing or deleting fails
     */
    @TearDown(Level.Iteration)
    public void deleteFile() throws IOException {
        long size = channel.size();
        channel.close();
        Files.delete(file);
        if (size != writeTotalMb * (1L << 20)) {
            throw new IllegalStateException("wrote " + size + " bytes, expected " + writeTotalMb + " MiB");
        }
    }

    /** Deletes the scratch directory. */
    @TearDown(Level.Trial)
    public void deleteWorkspace() {
        workspace.close();
    }

    /**
     * Writes the whole file and forces it as the parameter says.
     *
     * @return bytes written
     * @throws IOException if a write or force fails
     */
    @Benchmark
    public long write() throws IOException {
        long chunks = writeTotalMb * 1024L / writeChunkKb;
        long written = 0;
        for (long i = 0; i < chunks; i++) {
            chunk.clear();
            while (chunk.hasRemaining()) {
                written += channel.write(chunk);
            }
            if (forceEach) {
                channel.force(false);
            }
        }
        if (!forceEach) {
            channel.force(false);
        }
        return written;
    }
}
