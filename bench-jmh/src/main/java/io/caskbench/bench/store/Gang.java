package io.caskbench.bench.store;

import io.caskbench.bench.ThreadGang;
import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.workload.Workload;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
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
 * <p>An invocation that has not finished after {@link #LIMIT} ({@code -Dcaskbench.gangLimitSeconds},
 * default 120) is stopped and fails with the rate it reached, so one store that collapses under 1000
 * threads cannot stall the rest of the suite; JMH then reports no figure for it.
 *
 * <p>Thread {@code t} works on positions {@code base + t*n .. base + t*n + n-1} of the workload's fill
 * order when it puts and of its read order when it reads ({@code n} operations per thread, modulo the key
 * count), so the threads never collide on a key unless the key count is below {@code 1000 n}, and reads
 * visit the keys in an order independent of the one they were written in.
 */
@State(Scope.Benchmark)
public class Gang {

    /** Threads in the gang. */
    public static final int THREADS = 1_000;
    /** Operations each thread does per invocation by default: the reference experiment's 1000. */
    public static final int OPS_PER_THREAD = 1_000;
    /** Operations per invocation, for {@code @OperationsPerInvocation}. */
    public static final int OPS = THREADS * OPS_PER_THREAD;

    /** Time one invocation may take before it is stopped and failed. */
    static final Duration LIMIT = Duration.ofSeconds(Long.getLong("caskbench.gangLimitSeconds", 120));

    private final AtomicLong done = new AtomicLong();
    /** Each gang thread's key buffer (see {@link Workload#keyBuffer()}), made by that thread on first use. */
    private final byte[][] keyBuffers = new byte[THREADS][];
    private ThreadGang gang;
    private int opsPerThread;
    private String benchmark;
    private String params;

    /** JMH creates the state and starts it in {@link #start(BenchmarkParams)}. */
    public Gang() {
    }

    /** A started gang doing {@code opsPerThread} operations per thread, outside JMH; for tests. */
    Gang(int opsPerThread) {
        start(opsPerThread, "test", "");
    }

    /** Starts the threads; not measured. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        int ops = params.getParamsKeys().contains("opsPerThread")
                ? Integer.parseInt(params.getParam("opsPerThread")) : OPS_PER_THREAD;
        if (params.getOpsPerInvocation() != THREADS * ops) {
            throw new IllegalStateException("operations per invocation is " + params.getOpsPerInvocation()
                    + " but the gang does " + THREADS + " x " + ops + "; set -opi " + THREADS * ops);
        }
        start(ops, params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.',
                params.getBenchmark().lastIndexOf('.') - 1) + 1),
                params.getParamsKeys().stream().map(k -> k + "=" + params.getParam(k))
                        .collect(Collectors.joining(" ")));
    }

    private void start(int ops, String benchmark, String params) {
        this.opsPerThread = ops;
        this.benchmark = benchmark;
        this.params = params;
        gang = new ThreadGang(THREADS, "store-gang");
    }

    /** Stops the threads. */
    @TearDown(Level.Trial)
    public void stop() {
        gang.close();
    }

    /** One operation of one gang thread; returns the sum of the bytes it read, or 0. */
    @FunctionalInterface
    public interface Op {
        /**
         * Does operation {@code j} (0 .. opsPerThread-1) of gang thread {@code thread}.
         *
         * @return the sum of the bytes read ({@link Reads#sum}), summed into the invocation's result
         */
        long apply(int thread, int j);
    }

    /**
     * Every thread does its {@code opsPerThread} operations; the invocation fails with the rate it reached
     * if it runs past the time limit. Returns the sum of what the operations returned.
     */
    public long each(String what, Op op) {
        long[] sums = new long[THREADS];
        int ops = opsPerThread;
        run(what, t -> {
            long sum = 0;
            int j = 0;
            for (; j < ops && !gang.stopRequested(); j++) {
                sum += op.apply(t, j);
            }
            sums[t] = sum;
            done.addAndGet(j);
        });
        long total = 0;
        for (long sum : sums) {
            total += sum;
        }
        return total;
    }

    /** Operations each thread does per invocation. */
    public int opsPerThread() {
        return opsPerThread;
    }

    /** Every thread puts its keys. */
    public void put(StoreAdapter store, Workload workload, int base) {
        int n = workload.keyCount();
        byte[] value = workload.value();
        int ops = opsPerThread;
        each("put", (t, j) -> {
            store.put(workload.fillKey((base + t * ops + j) % n, keyBuffer(t, workload)), value);
            return 0;
        });
    }

    private void run(String what, ThreadGang.Task task) {
        done.set(0);
        long start = System.nanoTime();
        long total = (long) THREADS * opsPerThread;
        if (!gang.run(task, LIMIT) && done.get() < total) {
            double seconds = (System.nanoTime() - start) / 1e9;
            String message = String.format(Locale.ROOT,
                    "%d-thread %s stopped after %.0f s: %,d of %,d operations done (%,.0f ops/s); no figure recorded",
                    THREADS, what, seconds, done.get(), total, done.get() / seconds);
            StoppedRuns.record(benchmark + " " + params + ": " + message);
            throw new IllegalStateException(message);
        }
    }

    /**
     * Every thread reads its keys (one in ten is overwritten instead when {@code putEvery10th}). Returns
     * the sum of every byte of every value read, and fails if any key is missing: the reads must really
     * read, and no value copy can be dropped as unused.
     */
    public long read(StoreAdapter store, Workload workload, boolean putEvery10th) {
        int n = workload.keyCount();
        byte[] value = workload.value();
        int ops = opsPerThread;
        return each(putEvery10th ? "mixed" : "get", (t, j) -> {
            int position = (t * ops + j) % n;
            byte[] key = keyBuffer(t, workload);
            if (putEvery10th && j % 10 == 9) {
                store.put(workload.readKey(position, key), value);
                return 0;
            }
            return Reads.sum(Reads.get(store, workload, position, key));
        });
    }

    /** Gang thread {@code t}'s key buffer; only that thread calls this for its {@code t}. */
    private byte[] keyBuffer(int t, Workload workload) {
        byte[] buffer = keyBuffers[t];
        if (buffer == null) {
            buffer = keyBuffers[t] = workload.keyBuffer();
        }
        return buffer;
    }
}
