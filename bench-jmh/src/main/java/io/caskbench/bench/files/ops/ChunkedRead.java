package io.caskbench.bench.files.ops;

import io.caskbench.bench.files.fixture.CacheCounters;
import io.caskbench.bench.files.fixture.ReadTarget;
import io.caskbench.bench.files.fixture.Workspace;
import io.caskbench.bench.files.read.WholeFileReaders;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The iPod experiment, "reading with a file handle": read one file front to back in chunks of 1 KiB to
 * 8 MiB through {@code FileChannel.read} into a reused direct buffer of the chunk size. Answers
 * which chunk size a sequential reader should use: small chunks pay a system call per chunk,
 * chunks larger than the CPU's L2 cache make the copy and the consumer miss it.
 *
 * <p>Must not measure by accident: creating the file (per trial) or a dead read (every byte goes
 * into a checksum that is checked and fed to a Blackhole). {@code cache=cold} evicts the file
 * before every invocation and records the outcome, as the whole-file reads do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ChunkedRead {

    /** Size of the file read per operation, in MiB; the seed read 1 GB. */
    @Param("1024")
    public int sweepFileMb;

    /** Bytes per read call, in KiB; the seed went from 1 KB to 8 MB. */
    @Param({"1", "4", "64", "128", "256", "512", "1024", "2048", "4096", "8192"})
    public int readChunkKb;

    /** {@code warm} (file in the page cache) or {@code cold} (evicted before every invocation). */
    @Param("warm")
    public String cache;

    private Workspace workspace;
    private ReadTarget target;
    private ByteBuffer buffer;

    /** For JMH. */
    public ChunkedRead() {
    }

    /** Writes the file and, for a cold run, proves it can be evicted here. */
    @Setup(Level.Trial)
    public void createFile() {
        workspace = Workspace.create("chunked-read");
        Path file = Workspace.writeRandomFile(workspace.root().resolve("read.bin"), sweepFileMb * (1L << 20), 12);
        target = ReadTarget.of(List.of(file), cache);
        buffer = ByteBuffer.allocateDirect(readChunkKb * 1024);
    }

    /** For a cold run, evicts the file before each invocation (each reads the whole file). */
    @Setup(Level.Invocation)
    public void evictIfCold() {
        target.beforeInvocation();
    }

    /** Deletes the file. */
    @TearDown(Level.Trial)
    public void deleteFile() {
        workspace.close();
    }

    /**
     * Reads the whole file in chunks of {@code readChunkKb}.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException if a read fails
     */
    @Benchmark
    public void read(Blackhole blackhole, CacheCounters counters) throws IOException {
        target.finish(WholeFileReaders.channel(target.files().get(0), buffer), blackhole, counters);
    }
}
