package io.caskbench.bench.store.overwrite;

import io.caskbench.bench.openloop.OpType;
import io.caskbench.bench.openloop.Operation;
import io.caskbench.bench.openloop.OperationMix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * The load at full speed, closed loop: each thread issues its next operation as soon as the last returns,
 * for the interval's length. Latencies are each operation's own service time, not from an intended start,
 * so they are labelled closed loop and judge nothing; the figure here is the throughput. Used by one thread.
 */
public final class FullSpeedIntervals implements IntervalLoad {

    private final int threads;
    private final double putShare;
    private final Operation operation;
    /** Seeds the threads' draws of operation kinds; measuring thread only. */
    private final SplittableRandom seeds = new SplittableRandom(1);

    /** {@code threads} threads issuing {@code mix} back to back. */
    public FullSpeedIntervals(int threads, OperationMix mix, Operation operation) {
        this.threads = threads;
        this.putShare = mix.putShare();
        this.operation = operation;
    }

    @Override
    public Interval run(Duration length) {
        Histogram puts = new Histogram(3);
        Histogram gets = new Histogram(3);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        List<Histogram[]> results = new ArrayList<>();
        AtomicLong sink = new AtomicLong();
        long start = System.nanoTime();
        long end = start + length.toNanos();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            SplittableRandom random = seeds.split();
            Histogram[] mine = {new Histogram(3), new Histogram(3)};
            results.add(mine);
            Thread th = new Thread(() -> {
                long sum = 0;
                try {
                    for (long now = System.nanoTime(); now < end && failure.get() == null; ) {
                        OpType type = random.nextDouble() < putShare ? OpType.PUT : OpType.GET;
                        sum += operation.run(thread, type);
                        long done = System.nanoTime();
                        mine[type == OpType.PUT ? 0 : 1].recordValue(done - now);
                        now = done;
                    }
                } catch (Exception | Error e) {
                    failure.compareAndSet(null, e);
                }
                sink.addAndGet(sum);
            }, "full-speed-" + t);
            th.setDaemon(true);
            th.start();
            started.add(th);
        }
        try {
            for (Thread th : started) {
                th.join(); // each ends at the interval's end or at its operation's failure
            }
        } catch (InterruptedException e) {
            started.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while driving the load", e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("an operation failed: " + failure.get(), failure.get());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        for (Histogram[] h : results) {
            puts.add(h[0]);
            gets.add(h[1]);
        }
        return new Interval(puts, gets, seconds, sink.get());
    }

    @Override
    public boolean openLoop() {
        return false;
    }
}
