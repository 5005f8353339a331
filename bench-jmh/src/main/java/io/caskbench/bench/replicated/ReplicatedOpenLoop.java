package io.caskbench.bench.replicated;

import io.caskbench.bench.openloop.OpType;
import io.caskbench.bench.openloop.OpenLoopDriver;
import io.caskbench.bench.openloop.OpenLoopProfiler;
import io.caskbench.bench.openloop.OpenLoopResult;
import io.caskbench.bench.openloop.OpenLoopSettings;
import io.caskbench.bench.openloop.Operation;
import io.caskbench.bench.openloop.OperationMix;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Why: how long does a put or a linearizable get take when requests arrive at a fixed rate, as a service's
 * do, from 1, 8 or 64 clients, against the single-node store in the same run? {@code clients} worker
 * threads share {@code rate} operations per second, half puts, half gets, each timed from when it was due
 * ({@link OpenLoopDriver}); {@link OpenLoopProfiler} reports p50, p99, p99.9 and max per kind, and the
 * offered and achieved rates, and the same percentiles of a harness pass run just before in the same fork
 * (the same clients and rate, a 1 us operation instead of the store's): the driver's floor. One JMH
 * invocation ({@code SingleShotTime}) holds both passes' warm-up and measured period; JMH's own score is
 * that invocation's wall time and is no figure.
 *
 * <p>The rate, 50 operations per second, is meant to lie well below what one group of three replicas
 * sustains on an idle 2-core machine, where a replicated put waits for a forced log on a majority: one client
 * must finish each operation within 20 ms. The percentiles are then those of a store keeping up, not of a
 * queue; a row whose {@code achieved} falls short of {@code offered} was saturated, and the report says so
 * (a smoke run on a machine busy with builds, at 200 operations per second, achieved 26). It is a parameter
 * ({@code -p rate=}). The measured 8 s give 400 operations, 200 of each kind: a p99 of few samples, so
 * every open-loop figure of the quick profile is indicative.
 *
 * <p>Must not measure by accident: the replicas' start, election and fill, key formatting, thread start,
 * or a miss (a get that finds nothing fails the run).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class ReplicatedOpenLoop extends ReplicatedBenchmark {

    /** Share of puts among the operations. */
    static final double PUT_SHARE = 0.5;

    /** Client threads sharing the rate. */
    @Param({"1", "8", "64"})
    public int clients;

    /** Operations per second asked of all clients together. */
    @Param("50")
    public int rate;

    /** The driver's warm-up: operations due in it run but are not recorded. */
    @Param("2000")
    public int warmupMillis;

    /** The measured period. */
    @Param("8000")
    public int measureMillis;

    /** The driver's settings; made by the set-up. */
    private OpenLoopSettings settings;
    /** Each client's next key index; slot {@code t} touched by client thread {@code t} only. */
    private int[] cursors;

    /** Creates the state; JMH fills it in the set-up. */
    public ReplicatedOpenLoop() {
    }

    /** The driver's settings and each client's start key. */
    @Setup(Level.Trial)
    public void plan() {
        settings = OpenLoopSettings.builder().threads(clients).rate(rate).mix(OperationMix.withPutShare(PUT_SHARE))
                .warmup(Duration.ofMillis(warmupMillis)).measure(Duration.ofMillis(measureMillis)).build();
        cursors = new int[clients];
        for (int t = 0; t < clients; t++) {
            cursors[t] = (int) ((long) t * keyCount / clients);
        }
    }

    /** Fails unless the profiler that reports the figures runs in this JVM. */
    @Setup(Level.Iteration)
    public void requireProfiler() {
        OpenLoopProfiler.requireAttached();
    }

    /** The load: puts and gets of written keys at {@code rate}; returns what JMH must consume. */
    @Benchmark
    public long mix() {
        Operation operation = (t, type) -> {
            int i = cursors[t] = (cursors[t] + 1) % keyCount;
            if (type == OpType.PUT) {
                target.put(keys[i], value);
                return 0;
            }
            return mustGet(i).length;
        };
        OpenLoopResult result = OpenLoopDriver.runWithHarness(settings, operation);
        OpenLoopProfiler.publish(result);
        return result.sink();
    }
}
