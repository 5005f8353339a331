package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.Positions;
import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * The iPod experiment, "seeking in a file": move the file position to a random offset, without reading.
 * The seed found a seek as cheap as walking a ten-element array; this gives the Java figure.
 *
 * <p>Must not measure by accident: drawing the offsets (per trial, a seeded sequence shared with
 * nothing else that matters) or a seek the JIT could drop (it cannot drop a system call, and the
 * new position is returned anyway).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RandomSeek {

    /** File size in MiB; the seed seeked in a 1 GB file. */
    @Param("1024")
    public int seekFileMb;

    private Workspace workspace;
    private RandomAccessFile randomAccessFile;
    private FileChannel channel;
    private Positions positions;

    /** For JMH. */
    public RandomSeek() {
    }

    /**
     * Writes the file and opens it two ways.
     *
     * @throws IOException if opening fails
     */
    @Setup(Level.Trial)
    public void open() throws IOException {
        workspace = Workspace.create("seek");
        long size = seekFileMb * (1L << 20);
        Path file = Workspace.writeRandomFile(workspace.root().resolve("seek.bin"), size, 13);
        randomAccessFile = new RandomAccessFile(file.toFile(), "r");
        channel = FileChannel.open(file, StandardOpenOption.READ);
        positions = new Positions(size, 0);
    }

    /**
     * Closes the file and deletes it.
     *
     * @throws IOException if closing fails
     */
    @TearDown(Level.Trial)
    public void close() throws IOException {
        channel.close();
        randomAccessFile.close();
        workspace.close();
    }

    /**
     * RandomAccessFile.seek.
     *
     * @return the offset seeked to
     * @throws IOException if the seek fails
     */
    @Benchmark
    public long randomAccessFileSeek() throws IOException {
        long offset = positions.next();
        randomAccessFile.seek(offset);
        return offset;
    }

    /**
     * FileChannel.position(long).
     *
     * @return the channel, now at the new position
     * @throws IOException if the seek fails
     */
    @Benchmark
    public FileChannel channelPosition() throws IOException {
        return channel.position(positions.next());
    }
}
