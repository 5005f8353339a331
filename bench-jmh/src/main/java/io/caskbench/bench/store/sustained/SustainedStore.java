package io.caskbench.bench.store.sustained;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.fixture.KeysInStore;
import io.caskbench.bench.store.fixture.OpenStore;
import io.caskbench.bench.store.fixture.WorkloadSpec;
import io.caskbench.bench.store.workload.Workload;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

/**
 * One store written for as long as an iteration lasts, never swapped: the state of {@link SustainedPut}.
 *
 * <p>Each iteration's single invocation puts keys in the workload's fill order, wrapping round, until
 * the iteration's time has passed since its first put, then closes the store, so what it defers to its
 * close is timed. The next iteration's setup opens the store again on the same files. A store that keeps
 * nothing through a close (in memory) is not closed. Should JMH call again in an iteration whose store
 * is done, the call returns at once and puts nothing.
 *
 * <p>Only the benchmark's one JMH thread touches this state.
 */
@State(Scope.Thread)
public class SustainedStore {

    /** Puts between two looks at the clock. */
    static final int CHECK_EVERY = 256;

    private final LongSupplier clock;
    private Workload workload;
    private OpenStore store;
    private byte[] keyBuffer;
    /** Iteration length in nanoseconds. */
    private long iterationNanos;
    /** Puts done since the trial began; the next put's position in the fill order, modulo the key count. */
    private long total;
    /** True once this iteration's puts and close are done. */
    private boolean done;

    /** JMH creates the state and opens it in {@link #open(BenchmarkParams)}. */
    public SustainedStore() {
        this(System::nanoTime);
    }

    /** A state that reads time from {@code clock}; for tests. */
    SustainedStore(LongSupplier clock) {
        this.clock = clock;
    }

    /** Generates the workload and opens the store; not measured. */
    @Setup(Level.Trial)
    public void open(BenchmarkParams params) {
        open(WorkloadSpec.of(params));
    }

    /** {@link #open(BenchmarkParams)} for a spec. */
    void open(WorkloadSpec spec) {
        workload = spec.workload();
        keyBuffer = workload.keyBuffer();
        store = OpenStore.create(spec.store(), spec.config(workload));
        total = 0;
    }

    /** Reopens the store the last iteration closed, and reads this iteration's length; not measured. */
    @Setup(Level.Iteration)
    public void startIteration(IterationParams params) {
        startIteration(params.getTime().convertTo(TimeUnit.NANOSECONDS));
    }

    /** {@link #startIteration(IterationParams)} for an iteration of {@code nanos}. */
    void startIteration(long nanos) {
        if (!store.isOpen()) {
            store.reopen();
        }
        iterationNanos = nanos;
        done = false;
    }

    /**
     * Puts until the iteration's length has passed since the first put, records the keys the store held,
     * and closes a persistent store. Returns the puts done; 0 once the iteration is done.
     */
    public long putForIteration() {
        if (done) {
            return 0;
        }
        StoreAdapter adapter = store.adapter();
        byte[] value = workload.value();
        byte[] key = keyBuffer;
        int n = workload.keyCount();
        long before = total;
        long position = total;
        long deadline = clock.getAsLong() + iterationNanos;
        do {
            for (int i = 0; i < CHECK_EVERY; i++, position++) {
                adapter.put(workload.fillKey((int) (position % n), key), value);
            }
        } while (clock.getAsLong() - deadline < 0);
        total = position;
        long puts = position - before;
        KeysInStore.record(KeysInStore.midway(0, before, puts, n));
        if (adapter.persistent()) {
            store.closeAdapter();
        }
        done = true;
        return puts;
    }

    /** Puts done since the trial began. */
    long total() {
        return total;
    }

    /** Closes the store and deletes its files. */
    @TearDown(Level.Trial)
    public void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }
}
