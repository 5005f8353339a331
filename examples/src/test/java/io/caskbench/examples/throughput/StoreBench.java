package io.caskbench.examples.throughput;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.ProtostuffCodec;
import io.caskbench.bitcask.SyncPolicy;
import io.caskbench.examples.service.ObjectMeta;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * Single-threaded get and put of one object-metadata record, on either segment backend. It exists
 * for {@link StoreThroughputPerfTest}, which asserts on its scores from JUnit.
 *
 * <p>What it must not measure by accident: encoding keys or values (done once, per trial), opening
 * and filling the store (per trial), the disk (the few MiB of data stay in the page cache, so
 * MAPPED against FILE_CHANNEL compares a memory copy with a {@code pread} system call, which is
 * the point), or one hot key (a cursor walks all keys, so index probes vary). Puts overwrite the
 * same key set, so the key directory does not grow during the run; the log does, a few hundred
 * MB at most in these short runs, and is deleted at tear-down.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class StoreBench {

    /** How segment bytes are read and written. */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;

    /** When writes are forced to disk; NONE unless a run asks to see what forcing costs. */
    @Param({"NONE"})
    public SyncPolicy sync;

    /** Keys in the store, all of them read and overwritten in turn. */
    @Param({"10000"})
    public int keys;

    private Path dir;
    private BitCask db;
    private byte[][] keyBytes;
    private byte[] value;

    /** Each benchmark thread walks the keys on its own. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    /** Opens a fresh store and writes every key once. */
    @Setup(Level.Trial)
    public void open() throws IOException {
        // Under target/ when run from the module (where Maven runs tests), so /tmp stays small.
        Path root = Files.isDirectory(Path.of("target")) ? Path.of("target") : Path.of(System.getProperty("java.io.tmpdir"));
        dir = Files.createTempDirectory(root, "store-bench-");
        db = BitCask.open(dir, BitCaskOptions.builder().backend(backend).syncPolicy(sync).expectedKeys(keys).build());
        value = ProtostuffCodec.of(ObjectMeta.class).encode(new ObjectMeta("photos", "object0.png", 245_761,
                "9e107d9d372bb6826bd81d3542a419d6", "image/png", Instant.parse("2026-01-01T00:00:00Z"),
                Map.of("owner", "alice", "camera", "X100V")));
        keyBytes = new byte[keys][];
        for (int i = 0; i < keys; i++) {
            keyBytes[i] = ("photos/object" + i + ".png").getBytes(StandardCharsets.UTF_8);
            db.put(keyBytes[i], value);
        }
    }

    /** Closes the store and deletes its files. */
    @TearDown(Level.Trial)
    public void close() throws IOException {
        db.close();
        MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
    }

    /** Reads one record; returned so the read is not dead code. */
    @Benchmark
    public byte[] get(Cursor cursor) {
        return db.get(keyBytes[advance(cursor)]);
    }

    /** Overwrites one record with the same value; the store's state is the side effect. */
    @Benchmark
    public void put(Cursor cursor) {
        db.put(keyBytes[advance(cursor)], value);
    }

    private int advance(Cursor cursor) {
        int i = cursor.next;
        cursor.next = i + 1 == keys ? 0 : i + 1;
        return i;
    }
}
