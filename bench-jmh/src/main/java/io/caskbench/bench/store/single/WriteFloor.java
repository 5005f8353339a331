package io.caskbench.bench.store.single;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bitcask.BitCask;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Why: the FILE_CHANNEL backend must write each record before {@code put} returns, or a {@code kill -9}
 * loses it. One positional write per record is therefore its physical floor on one thread, and its
 * performance target asks its put to stay within 1.2x of that floor. Compare these rows with
 * {@code PeersSingleThread.put} for {@code BITCASK_FILE_CHANNEL} in the same run.
 *
 * <p>Each write is one record of the target's shape (16-byte key, {@code valueSize}-byte value, BitCask's
 * header), appended at the end of a file, as the backend appends to its segment: extending writes to fresh
 * pages. (Rewriting one preallocated 64 MiB file in a loop instead came out slower than BitCask's own
 * put, which appends.) A new file starts every {@link #FILE_BYTES}, as a segment
 * would; full files are deleted after each iteration. {@code heap} writes from a wrapped heap array, as the
 * backend does (the JDK copies it to a cached direct buffer); {@code direct} writes from a direct buffer
 * and is the stricter floor. Must not measure by accident: encoding, the CRC and the key directory, which
 * are the store's own work above the floor, nor creating or deleting the files (fixtures).
 */
@State(Scope.Thread)
public class WriteFloor extends StoreBenchmark {

    /** Records per invocation, for {@code @OperationsPerInvocation}. */
    static final int BATCH = 1_000;
    /** Bytes per file before the next one starts: BitCask's default segment size. */
    static final long FILE_BYTES = 64L << 20;

    /** Value length in bytes; the record adds a 16-byte key and the record header. */
    @Param("100")
    public int valueSize;

    private Path dir;
    private FileChannel channel;
    private int files;
    private byte[] record;
    private ByteBuffer heap;
    private ByteBuffer direct;
    private long position;

    /** Creates the directory and a record of random bytes. */
    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = StoreDirs.create(StoreKind.BITCASK_FILE_CHANNEL);
        record = new byte[BitCask.recordSize(16, valueSize)];
        new SplittableRandom(42).nextBytes(record);
        heap = ByteBuffer.wrap(record);
        direct = ByteBuffer.allocateDirect(record.length);
        direct.put(record).flip();
        nextFile();
    }

    private void nextFile() throws IOException {
        if (channel != null) {
            channel.close();
        }
        channel = FileChannel.open(dir.resolve("floor-" + files++ + ".dat"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
        position = 0;
    }

    /** Deletes the files filled during the iteration; the one being appended to stays. */
    @TearDown(Level.Iteration)
    public void deleteFull() throws IOException {
        for (int i = 0; i < files - 1; i++) {
            Files.deleteIfExists(dir.resolve("floor-" + i + ".dat"));
        }
    }

    /** Closes and deletes the files. */
    @TearDown(Level.Trial)
    public void close() throws IOException {
        channel.close();
        StoreDirs.delete(dir);
    }

    /** One {@code pwrite} per record from a heap array, as the FILE_CHANNEL backend issues it. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long heap() throws IOException {
        return writeBatch(heap);
    }

    /** One {@code pwrite} per record from a direct buffer: no JDK copy, the strict floor. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long direct() throws IOException {
        return writeBatch(direct);
    }

    private long writeBatch(ByteBuffer buffer) throws IOException {
        int length = record.length;
        long written = 0;
        for (int i = 0; i < BATCH; i++) {
            if (position + length > FILE_BYTES) {
                nextFile();
            }
            buffer.clear();
            written += channel.write(buffer, position);
            position += length;
        }
        return written;
    }
}
