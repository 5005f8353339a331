package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.SyncPolicy;
import java.nio.file.Path;
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
 * Why: does group commit hold up when every writer is a virtual thread? {@code threads} virtual threads
 * share {@value #OPS} puts per invocation into a BitCask store under {@link SyncPolicy#ALWAYS}, so each put
 * returns once forced; the writers parked in group commit must leave their carriers to the others, and
 * the leader's {@code fdatasync} blocks its carrier, which the JDK may make up for with another one
 * ({@code carriersAdded}, {@link CarrierCounters}). Compare with {@link GroupCommit#gang}'s 1000 platform
 * threads on the same backend. Keys cycle through 1M, in 64 MiB segments.
 *
 * <p>Not measured by accident: store open and key generation (trial setup); the virtual threads' start is
 * measured, as in {@link VirtualThreads}.
 */
@State(Scope.Benchmark)
public class VirtualThreadsAlways extends StoreBenchmark {

    /** Puts per invocation, shared by the threads. */
    static final int OPS = 100_000;
    private static final int KEYS = 1 << 20;

    /** Segment backend. */
    @Param({"FILE_CHANNEL", "MAPPED"})
    public Backend backend;

    /** Virtual threads per invocation; {@value #OPS} must divide by it. Read by {@link VirtualGang}. */
    @Param({"1000", "100000"})
    public int threads;

    private Path dir;
    private BitCask db;
    private byte[][] keys;
    private byte[] value;
    private int cursor;

    /** Opens the store and generates the keys. */
    @Setup(Level.Trial)
    public void open() {
        dir = StoreDirs.create(StoreKind.of(backend));
        db = GroupCommit.open(dir, backend, SyncPolicy.ALWAYS);
        SplittableRandom random = new SplittableRandom(7);
        keys = GroupCommit.randomKeys(random, KEYS);
        value = new byte[100];
        random.nextBytes(value);
    }

    /** Closes the store and deletes it. */
    @TearDown(Level.Trial)
    public void close() {
        db.close();
        StoreDirs.delete(dir);
    }

    /** {@code threads} virtual threads put, each put forced before it returns. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public void put(VirtualGang gang, CarrierCounters counters) {
        int base = cursor;
        int ops = gang.opsPerThread();
        gang.each((t, j) -> {
            db.put(keys[(base + t * ops + j) & (KEYS - 1)], value);
            return 0;
        });
        cursor = base + OPS;
        counters.record(gang);
    }
}
