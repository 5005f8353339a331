package io.caskbench.bench.openloop;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Drives operations at a fixed arrival rate from worker threads and times each from its intended start
 * (wrk2's way of avoiding coordinated omission).
 *
 * <p>Each of {@code threads} workers gets {@code rate / threads} of the arrivals on its own
 * {@link Schedule}. Operation {@code i} of a worker is due at {@code origin + i * interval}; the worker
 * waits for that time if it is early, and issues at once, back to back, if it is late, until it has
 * caught up. Its latency is completion minus the due time, so a stall of 100 ms at a 1 ms interval yields
 * about 100 delayed samples, not one. Operations due during the warm-up run but are not recorded;
 * operations due in the measured period are recorded into a histogram per kind, per worker, merged at the
 * end. No operation due after the measured period is started, and a late worker stops after the grace.
 */
public final class OpenLoopDriver {

    /** Time from the threads being ready to the first intended start, so no thread starts late. */
    private static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Extra real time, beyond the run's own length, to wait for an operation that hangs. */
    private static final long JOIN_SLACK_MILLIS = 30_000;

    private OpenLoopDriver() {
    }

    /** Runs {@code operation} as {@code settings} ask, on the system clock. */
    public static OpenLoopResult run(OpenLoopSettings settings, Operation operation) {
        return run(settings, operation, Clock.SYSTEM);
    }

    /**
     * Runs {@code operation} as {@code settings} ask, timed and paced by {@code clock}.
     *
     * @throws IllegalStateException when an operation threw (its exception is the cause) or a worker hung
     */
    public static OpenLoopResult run(OpenLoopSettings settings, Operation operation, Clock clock) {
        int threads = settings.threads();
        Worker[] workers = new Worker[threads];
        SplittableRandom seeds = new SplittableRandom(settings.seed());
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Window window = new Window();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Worker w = new Worker(t, settings, operation, clock, seeds.split(), window, failure);
            workers[t] = w;
            Thread thread = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                    w.drive();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "open-loop-" + t);
            thread.setDaemon(true);
            thread.start();
            started.add(thread);
        }
        try {
            ready.await();
            long origin = clock.nanoTime() + LEAD_NANOS;
            window.origin = origin;
            window.measureStart = origin + settings.warmup().toNanos();
            window.end = window.measureStart + settings.measure().toNanos();
            window.hardStop = window.end + settings.grace().toNanos();
            go.countDown(); // publishes the window to the workers
            long limit = System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(window.hardStop - origin)
                    + JOIN_SLACK_MILLIS;
            for (Thread thread : started) {
                thread.join(Math.max(1, limit - System.currentTimeMillis()));
                if (thread.isAlive()) {
                    started.forEach(Thread::interrupt);
                    throw new IllegalStateException(thread.getName() + " did not stop: an operation hangs");
                }
            }
        } catch (InterruptedException e) {
            started.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while driving the load", e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("an operation failed: " + failure.get(), failure.get());
        }
        return collect(settings, workers, window);
    }

    private static OpenLoopResult collect(OpenLoopSettings settings, Worker[] workers, Window window) {
        Map<OpType, Histogram> byType = new EnumMap<>(OpType.class);
        for (OpType type : settings.mix().types()) {
            byType.put(type, new Histogram(3));
        }
        long recorded = 0;
        long unfinished = 0;
        long lastDone = window.end;
        long sink = 0;
        for (Worker w : workers) {
            w.histograms.forEach((type, h) -> byType.get(type).add(h));
            recorded += w.recorded;
            unfinished += w.unfinished;
            lastDone = Math.max(lastDone, w.lastDone);
            sink += w.sink;
        }
        double seconds = (lastDone - window.measureStart) / 1e9;
        return new OpenLoopResult(byType, settings.rate(), recorded / seconds, unfinished, sink);
    }

    /** The run's times, set once before the workers are let go (the latch publishes them). */
    private static final class Window {
        long origin;
        long measureStart;
        long end;
        long hardStop;
    }

    /** One worker thread's loop and what it recorded; its fields are touched by that thread only until it is joined. */
    private static final class Worker {
        private final int thread;
        private final OpenLoopSettings settings;
        private final Operation operation;
        private final Clock clock;
        private final SplittableRandom random;
        private final Window window;
        private final AtomicReference<Throwable> failure;
        private final Map<OpType, Histogram> histograms = new EnumMap<>(OpType.class);
        private long recorded;
        private long unfinished;
        private long lastDone;
        private long sink;

        Worker(int thread, OpenLoopSettings settings, Operation operation, Clock clock, SplittableRandom random,
                Window window, AtomicReference<Throwable> failure) {
            this.thread = thread;
            this.settings = settings;
            this.operation = operation;
            this.clock = clock;
            this.random = random;
            this.window = window;
            this.failure = failure;
            for (OpType type : settings.mix().types()) {
                histograms.put(type, new Histogram(3));
            }
        }

        void drive() {
            Schedule schedule = Schedule.forThread(window.origin, settings.rate(), settings.threads(), thread);
            long end = window.end;
            long measureStart = window.measureStart;
            long i = 0;
            for (long due = schedule.due(i); due < end; due = schedule.due(++i)) {
                if (failure.get() != null || Thread.currentThread().isInterrupted()) {
                    return;
                }
                if (clock.nanoTime() >= window.hardStop) {
                    unfinished = schedule.countBetween(Math.max(due, measureStart), end);
                    return;
                }
                clock.sleepUntil(due);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                OpType type = settings.mix().next(random);
                try {
                    sink += operation.run(thread, type);
                } catch (Exception | Error e) {
                    failure.compareAndSet(null, e);
                    return;
                }
                long done = clock.nanoTime();
                if (due >= measureStart) {
                    histograms.get(type).recordValue(Math.max(0, done - due));
                    recorded++;
                    lastDone = done;
                }
            }
        }
    }
}
