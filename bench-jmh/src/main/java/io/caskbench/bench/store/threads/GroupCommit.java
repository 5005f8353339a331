package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
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
 * Why: does BitCask combine concurrent writers? With {@link SyncPolicy#ALWAYS} every acknowledged put is
 * forced before it returns, so one thread pays one {@code fdatasync} per put; 1000 threads should share
 * each force (group commit) while their writes go in one at a time under BitCask's write lock, which is
 * the group-commit performance target (and, with {@code sync=NONE} on FILE_CHANNEL, the 1000-thread half
 * of the FILE_CHANNEL target). {@code single} and {@code gang} run the same puts of new 16-byte keys with
 * 100-byte values into the same store; their ratio is the figure.
 *
 * <p>The gang is the store suites' {@link Gang}: 1000 platform threads started per trial; each does
 * {@code opsPerThread} puts per invocation and the score is total puts over the gang's wall time, never
 * JMH's {@code @Threads}. The suite sets JMH's operations per invocation to match {@code opsPerThread}
 * (the gang checks), so a changed parameter cannot mis-scale the score. Keys cycle through 1M, so the
 * store grows by the run's data only, in 64 MiB segments. Must not measure by accident: thread start,
 * store open and key generation (fixtures). With {@code sync=NONE} the forces wait for the close at
 * trial end, outside the time: those rows are a contention figure, not a put cost with its deferred work.
 */
@State(Scope.Benchmark)
public class GroupCommit extends StoreBenchmark {

    /** Puts per invocation of {@code single}. */
    static final int SINGLE_BATCH = 100;
    /** Puts per gang thread per invocation in the default form. */
    public static final int GANG_OPS_PER_THREAD = 100;
    private static final int KEYS = 1 << 20;

    /** Segment backend. */
    @Param({"FILE_CHANNEL", "MAPPED"})
    public Backend backend;

    /** When puts are forced. */
    @Param({"ALWAYS", "NONE"})
    public SyncPolicy sync;

    /** Puts per gang thread per invocation; JMH's operations per invocation must be 1000 times this ({@link Gang} checks). */
    @Param("" + GANG_OPS_PER_THREAD)
    public int opsPerThread;

    private Path dir;
    private BitCask db;
    private byte[][] keys;
    private byte[] value;
    private int cursor;

    /** Opens the store and generates the keys. */
    @Setup(Level.Trial)
    public void open() {
        dir = StoreDirs.create(StoreKind.of(backend));
        db = open(dir, backend, sync);
        SplittableRandom random = new SplittableRandom(7);
        keys = randomKeys(random, KEYS);
        value = new byte[100];
        random.nextBytes(value);
    }

    /** A store sized for 2^20 keys on 64 MiB segments, automatic merge off: what the group-commit rows use. */
    static BitCask open(Path dir, Backend backend, SyncPolicy sync) {
        return BitCask.open(dir, BitCaskOptions.builder().backend(backend).syncPolicy(sync)
                .expectedKeys(KEYS).segmentSize(64L << 20).autoMerge(false).build());
    }

    /** {@code count} random decimal keys drawn from {@code random}. */
    static byte[][] randomKeys(SplittableRandom random, int count) {
        byte[][] keys = new byte[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = Workload.decimalKey(random.nextLong(10_000_000_000_000_000L));
        }
        return keys;
    }

    /** Closes the store and deletes it. */
    @TearDown(Level.Trial)
    public void close() {
        db.close();
        StoreDirs.delete(dir);
    }

    /** One thread, {@value #SINGLE_BATCH} puts per invocation. */
    @Benchmark
    @OperationsPerInvocation(SINGLE_BATCH)
    public void single() {
        int c = cursor;
        for (int i = 0; i < SINGLE_BATCH; i++) {
            db.put(keys[(c + i) & (KEYS - 1)], value);
        }
        cursor = c + SINGLE_BATCH;
    }

    /** 1000 threads x {@code opsPerThread} puts per invocation, total puts over wall time. */
    @Benchmark
    @OperationsPerInvocation(Gang.THREADS * GANG_OPS_PER_THREAD)
    public void gang(Gang gang) {
        int base = cursor;
        int ops = gang.opsPerThread();
        gang.each("put", (t, j) -> {
            db.put(keys[(base + t * ops + j) & (KEYS - 1)], value);
            return 0;
        });
        cursor = base + Gang.THREADS * ops;
    }
}
