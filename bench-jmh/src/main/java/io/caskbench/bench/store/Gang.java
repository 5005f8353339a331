package io.caskbench.bench.store;

import io.caskbench.bench.ThreadGang;
import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.workload.Workload;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The seed's concurrency shape as a JMH state: 1000 platform threads started once per trial, each doing
 * 1000 operations per invocation. Benchmarks using it declare {@code @OperationsPerInvocation(OPS)} and
 * so report total operations over the wall time of the whole gang.
 *
 * <p>A benchmark may declare an {@code opsPerThread} parameter to shrink the per-thread work (the smoke
 * profile does, so that a check of every benchmark stays short); the run must then set JMH's
 * operations per invocation to match, which the setup verifies, so a figure is never mis-scaled.
 *
 * <p>Thread {@code t} works on positions {@code base + t*n .. base + t*n + n-1} of the workload
 * ({@code n} operations per thread, modulo the key count), so the threads never collide on a key unless
 * the key count is below {@code 1000 n}.
 */
@State(Scope.Benchmark)
public class Gang {

    /** Threads in the gang. */
    public static final int THREADS = 1_000;
    /** Operations each thread does per invocation. */
    public static final int OPS_PER_THREAD = 1_000;
    /** Operations per invocation, for {@code @OperationsPerInvocation}. */
    public static final int OPS = THREADS * OPS_PER_THREAD;

    private ThreadGang gang;
    private int opsPerThread;

    /** Starts the threads; not measured. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        opsPerThread = params.getParamsKeys().contains("opsPerThread")
                ? Integer.parseInt(params.getParam("opsPerThread")) : OPS_PER_THREAD;
        if (params.getOpsPerInvocation() != THREADS * opsPerThread) {
            throw new IllegalStateException("operations per invocation is " + params.getOpsPerInvocation()
                    + " but the gang does " + THREADS + " x " + opsPerThread + "; set -opi "
                    + THREADS * opsPerThread);
        }
        gang = new ThreadGang(THREADS, "store-gang");
    }

    /** Stops the threads. */
    @TearDown(Level.Trial)
    public void stop() {
        gang.close();
    }

    /** Every thread puts its 1000 keys. */
    public void put(StoreAdapter store, Workload workload, int base) {
        int n = workload.keyCount();
        byte[] value = workload.value();
        int ops = opsPerThread;
        gang.run(t -> {
            int first = base + t * ops;
            for (int j = 0; j < ops; j++) {
                store.put(workload.keyAt((first + j) % n), value);
            }
        });
    }

    /**
     * Every thread reads its 1000 keys (one in ten is overwritten instead when {@code putEvery10th}).
     * Returns the bytes read, and fails if any key is missing: the reads must really read.
     */
    public long read(StoreAdapter store, Workload workload, boolean putEvery10th) {
        int n = workload.keyCount();
        byte[] value = workload.value();
        long[] bytes = new long[THREADS];
        int ops = opsPerThread;
        gang.run(t -> {
            int first = t * ops;
            long sum = 0;
            for (int j = 0; j < ops; j++) {
                int position = (first + j) % n;
                if (putEvery10th && j % 10 == 9) {
                    store.put(workload.keyAt(position), value);
                } else {
                    sum += Reads.get(store, workload, position).length;
                }
            }
            bytes[t] = sum;
        });
        long total = 0;
        for (long b : bytes) {
            total += b;
        }
        return total;
    }
}
