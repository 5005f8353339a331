package io.caskbench.bench.files.read;

import io.caskbench.bitcask.io.Unmapper;
import io.caskbench.bench.files.fixture.Checksum;
import io.caskbench.bench.files.fixture.Mappings;
import io.caskbench.bench.files.fixture.Positions;
import io.caskbench.bench.files.fixture.Workspace;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
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
 * The laptop experiment: one chunk read at a random offset of a large file, per operation. The file is larger
 * than the L3 cache, so chunks come from the page cache in DRAM, not from the CPU's caches.
 *
 * <p>Must not measure by accident: drawing random numbers (the offsets are drawn per trial, the
 * same sequence for every reader), creating or mapping the file (once per trial), first-touch page
 * faults of the mapping (the sequence cycles within the warmup), or a dead read (every byte of the
 * chunk goes into the returned checksum). The file stays warm in the page cache: this answers
 * "which API has the least overhead per random read", not "how fast is the disk".
 *
 * <p>The stream readers copy the chunk into a Java buffer; the mapped reader sums it where it
 * lies, since not copying is the point of mapping.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RandomChunkRead {

    /** Bytes read per operation; the seed used 256 and 4096. */
    @Param({"256", "4096", "65536"})
    public int chunk;

    /** File size in MiB: above the 32 MiB L3 of this machine, below 2 GiB (one mapping). */
    @Param("1024")
    public int randomFileMb;

    private Workspace workspace;
    private RandomAccessFile randomAccessFile;
    private FileChannel channel;
    private MappedByteBuffer map;
    private Positions positions;
    private byte[] heapChunk;
    private ByteBuffer directChunk;

    /** For JMH. */
    public RandomChunkRead() {
    }

    /**
     * Writes the file, opens it three ways and draws the offsets.
     *
     * @throws IOException if opening fails
     */
    @Setup(Level.Trial)
    public void open() throws IOException {
        long size = randomFileMb * (1L << 20);
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("randomFileMb must stay under 2048 so one mapping covers the file");
        }
        workspace = Workspace.create("random-chunk");
        Path file = Workspace.writeRandomFile(workspace.root().resolve("large.bin"), size, 4);
        randomAccessFile = new RandomAccessFile(file.toFile(), "r");
        channel = FileChannel.open(file, StandardOpenOption.READ);
        map = Mappings.mapReadOnly(file);
        positions = new Positions(size, chunk);
        heapChunk = new byte[chunk];
        directChunk = ByteBuffer.allocateDirect(chunk);
    }

    /**
     * Closes and unmaps everything and deletes the file.
     *
     * @throws IOException if closing fails
     */
    @TearDown(Level.Trial)
    public void close() throws IOException {
        Unmapper.unmap(map);
        channel.close();
        randomAccessFile.close();
        workspace.close();
    }

    /**
     * RandomAccessFile seek, then readFully into a reused array.
     *
     * @return checksum of the chunk
     * @throws IOException if the read fails
     */
    @Benchmark
    public long randomAccessFile() throws IOException {
        randomAccessFile.seek(positions.next());
        randomAccessFile.readFully(heapChunk, 0, chunk);
        return Checksum.update(0, heapChunk, 0, chunk);
    }

    /**
     * FileChannel positional read into a reused direct buffer (no seek, no JDK-side copy).
     *
     * @return checksum of the chunk
     * @throws IOException if the read fails
     */
    @Benchmark
    public long channelPositional() throws IOException {
        long offset = positions.next();
        directChunk.clear();
        while (directChunk.hasRemaining()) {
            if (channel.read(directChunk, offset + directChunk.position()) < 0) {
                throw new IOException("unexpected end of file");
            }
        }
        return Checksum.update(0, directChunk, 0, chunk);
    }

    /**
     * Absolute gets on a mapping made once per trial.
     *
     * @return checksum of the chunk
     */
    @Benchmark
    public long mapped() {
        return Checksum.update(0, map, (int) positions.next(), chunk);
    }
}
