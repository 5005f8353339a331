package io.caskbench.bench.files.read;

import io.caskbench.bench.files.fixture.CacheCounters;
import io.caskbench.bench.files.fixture.ReadTarget;
import io.caskbench.bench.files.fixture.Workspace;
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
 * The phone experiment: read every file of a set whole, once per invocation, with each of six readers. The
 * score is the time to read the whole set, as in the seed.
 *
 * <p>Must not measure by accident: creating the files (done per trial), a read the JIT removed
 * (every byte goes into a checksum that is compared with the expected one and fed to a
 * Blackhole), mappings left for the GC (each is released right after its file), or a cache state
 * other than the one asked for. With {@code cache=cold} the files' pages are evicted before every
 * invocation and the eviction is verified; {@link CacheCounters} records the outcome, and a trial
 * where no eviction method works at all fails instead of producing a "cold" number.
 *
 * <p>Subclasses define the file set; JMH generates the benchmarks once per subclass.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class WholeFileReadBenchmark {

    /** {@code warm} (files in the page cache) or {@code cold} (evicted before every invocation). */
    @Param("warm")
    public String cache;

    private Workspace workspace;
    private ReadTarget target;

    private final byte[] bufferedRequest = new byte[WholeFileReaders.BUFFERED_REQUEST];
    private final byte[] plainChunk = new byte[WholeFileReaders.CHUNK];
    private final ByteBuffer heapChunk = ByteBuffer.allocate(WholeFileReaders.CHUNK);
    private final ByteBuffer directChunk = ByteBuffer.allocateDirect(WholeFileReaders.CHUNK);

    /** For JMH. */
    protected WholeFileReadBenchmark() {
    }

    /**
     * Creates the file set in {@code dir}, forced to disk.
     *
     * @param dir an empty directory
     * @return the files, in the order they are read
     */
    protected abstract List<Path> createFiles(Path dir);

    /** Creates the files and, for a cold run, proves that they can be evicted here. */
    @Setup(Level.Trial)
    public void createFileSet() {
        workspace = Workspace.create(getClass().getSimpleName());
        target = ReadTarget.of(createFiles(workspace.root()), cache);
    }

    /**
     * For a cold run, evicts the set before each invocation. Per-invocation setup is acceptable
     * here because one invocation reads a whole set and takes milliseconds or more.
     */
    @Setup(Level.Invocation)
    public void evictIfCold() {
        target.beforeInvocation();
    }

    /** Deletes the file set. */
    @TearDown(Level.Trial)
    public void deleteFileSet() {
        workspace.close();
    }

    /** One way of reading one file whole; returns the file's checksum. */
    @FunctionalInterface
    private interface Reader {
        long read(Path file) throws IOException;
    }

    /* Each benchmark runs in its own fork, so this call site only ever sees one reader. */
    private void readSet(Reader reader, Blackhole blackhole, CacheCounters counters) throws IOException {
        long sum = 0;
        for (Path file : target.files()) {
            sum += reader.read(file);
        }
        target.finish(sum, blackhole, counters);
    }

    /**
     * BufferedInputStream over FileInputStream.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException if a read fails
     */
    @Benchmark
    public void bufferedStream(Blackhole blackhole, CacheCounters counters) throws IOException {
        readSet(file -> WholeFileReaders.bufferedStream(file, bufferedRequest), blackhole, counters);
    }

    /**
     * FileInputStream into a reused 64 KiB array.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException if a read fails
     */
    @Benchmark
    public void plainStream(Blackhole blackhole, CacheCounters counters) throws IOException {
        readSet(file -> WholeFileReaders.plainStream(file, plainChunk), blackhole, counters);
    }

    /**
     * Files.readAllBytes.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException if a read fails
     */
    @Benchmark
    public void readAllBytes(Blackhole blackhole, CacheCounters counters) throws IOException {
        readSet(WholeFileReaders::readAllBytes, blackhole, counters);
    }

    /**
     * FileChannel.read into a reused 64 KiB heap buffer.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException if a read fails
     */
    @Benchmark
    public void channelHeap(Blackhole blackhole, CacheCounters counters) throws IOException {
        readSet(file -> WholeFileReaders.channel(file, heapChunk), blackhole, counters);
    }

    /**
     * FileChannel.read into a reused 64 KiB direct buffer.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException if a read fails
     */
    @Benchmark
    public void channelDirect(Blackhole blackhole, CacheCounters counters) throws IOException {
        readSet(file -> WholeFileReaders.channel(file, directChunk), blackhole, counters);
    }

    /**
     * MappedByteBuffer of each file, unmapped right after it is read.
     *
     * @param blackhole sink for the checksum
     * @param counters cold-cache evidence
     * @throws IOException never; the mapping reports failures unchecked
     */
    @Benchmark
    public void mapped(Blackhole blackhole, CacheCounters counters) throws IOException {
        readSet(WholeFileReaders::mapped, blackhole, counters);
    }
}
