package io.caskbench.bench.store.latency;

import io.caskbench.bench.openloop.OpType;
import io.caskbench.bench.openloop.OpenLoopDriver;
import io.caskbench.bench.openloop.OpenLoopProfiler;
import io.caskbench.bench.openloop.OpenLoopResult;
import io.caskbench.bench.openloop.OpenLoopSettings;
import io.caskbench.bench.openloop.Operation;
import io.caskbench.bench.openloop.OperationMix;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bitcask.BitCask;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the open-loop store benchmarks share: one JMH invocation ({@code SingleShotTime}, one measured
 * iteration, no JMH warm-up) drives the load through {@link OpenLoopDriver} for {@code warmupMillis} and then
 * {@code measureMillis}, just after a harness pass of the same length, rate and threads with a 1 us operation
 * instead of the store's (the floor every figure contains, measured in the same fork), and
 * {@link OpenLoopProfiler} reports both, so each fork is one sample of the tail and of its floor. JMH's own
 * score is the invocation's wall time, both passes and their warm-ups included: it is no figure. Runs need
 * {@code -prof io.caskbench.bench.openloop.OpenLoopProfiler} (the latency suite adds it); without it the
 * iteration setup fails rather than drop the figures.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public abstract class OpenLoopBenchmark extends StoreBenchmark {

    /** The driver's warm-up: operations due in it run but are not recorded (JIT, page cache, the store's own warm-up). */
    @Param("3000")
    public int warmupMillis;

    /** The measured period: operations due in it are recorded. */
    @Param("5000")
    public int measureMillis;

    /** For subclasses. */
    protected OpenLoopBenchmark() {
    }

    /** Fails unless the profiler that reports the figures runs in this JVM. */
    @Setup(Level.Iteration)
    public void requireProfiler() {
        OpenLoopProfiler.requireAttached();
    }

    /** The settings for {@code threads} worker threads sharing {@code rate} operations per second of {@code mix}. */
    final OpenLoopSettings settings(int threads, int rate, OperationMix mix) {
        return OpenLoopSettings.builder().threads(threads).rate(rate).mix(mix)
                .warmup(Duration.ofMillis(warmupMillis)).measure(Duration.ofMillis(measureMillis)).build();
    }

    /**
     * Gets of existing keys (which must be found; every byte of the value is summed) and overwrites with
     * {@code value}, each worker thread walking its own cursor.
     */
    static Operation getOrPut(BitCask db, KeyCursor[] cursors, byte[] value) {
        return (t, type) -> {
            if (type == OpType.PUT) {
                db.put(cursors[t].next(), value);
                return 0;
            }
            return cursors[t].getNextSum(db);
        };
    }

    /**
     * Drives the harness pass and then {@code operation}, hands the result to the profiler, and returns what
     * JMH must consume.
     */
    static long drive(OpenLoopSettings settings, Operation operation) {
        OpenLoopResult result = OpenLoopDriver.runWithHarness(settings, operation);
        OpenLoopProfiler.publish(result);
        return result.sink();
    }
}
