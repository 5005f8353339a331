package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.fixture.DecimalWorkload;
import io.caskbench.bench.store.fixture.FilledStore;
import io.caskbench.bench.store.fixture.StoreParam;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * CROSS-CHECK ONLY, not a result. The same gets as {@link ThousandThreads#get}, but with JMH's own
 * {@code @Threads(1000)}. With far more threads than cores, JMH sums per-thread rates measured over
 * different windows, so this figure is expected to come out far too high; it is shown beside the gang
 * figure to make that visible, never instead of it.
 *
 * <p>Must not measure by accident what {@link ThousandThreads#get} must not: thread start, filling, or
 * dead reads (each value is returned to JMH, which consumes it).
 */
@State(Scope.Thread)
@Threads(JmhThreadsCrossCheck.THREADS)
public class JmhThreadsCrossCheck extends DecimalWorkload {

    /** JMH worker threads. */
    public static final int THREADS = 1_000;

    /** Declares the {@code store} parameter, by default every store at every setting ({@link StoreParam.Every}). */
    @Setup(Level.Trial)
    public void stores(StoreParam.Every stores) {
        // Nothing to set up: taking the state is what gives this benchmark the parameter.
    }

    /** Each thread starts at its own slice of the keys, as the gang's threads do. */
    @Setup(Level.Trial)
    public void start(ThreadParams thread) {
        startAt((int) ((long) thread.getThreadIndex() * ThousandThreads.OPS_PER_THREAD % keyCount));
    }

    /** One get of this thread's next key. */
    @Benchmark
    public byte[] get(FilledStore filled) {
        return readNext(filled);
    }
}
