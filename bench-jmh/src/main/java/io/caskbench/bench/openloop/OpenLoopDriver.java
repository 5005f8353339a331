package io.caskbench.bench.openloop;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 * end. No operation due after the measured period is started, and a late worker stops after the grace:
 * the operations it leaves are recorded at the grace's end minus their due time (censored, see
 * {@link OpenLoopResult#unfinished()}).
 *
 * <p>A worker waits for a due time by parking until a little before it and spinning to it
 * ({@link SpinAhead}); at most as many workers spin at once as the machine has processors. A run of more
 * threads than processors still runs every thread (the threads are the clients the system under test
 * serves, and fewer would change what it sees), but says once on standard error that the threads beyond
 * that park to their due times, and {@link #runWithHarness} measures the floor that leaves.
 */
public final class OpenLoopDriver {

    /** Time from the threads being ready to the first intended start, so no thread starts late. */
    private static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Extra real time, beyond the run's own length, to wait for an operation that hangs. */
    private static final long JOIN_SLACK_MILLIS = 30_000;
    /** Whether this JVM has said that a run has more threads than may spin; set once. */
    private static final AtomicBoolean TOLD = new AtomicBoolean();

    private OpenLoopDriver() {
    }

    /** Runs {@code operation} as {@code settings} ask, on the system clock. */
    public static OpenLoopResult run(OpenLoopSettings settings, Operation operation) {
        return run(settings, operation, Clock.SYSTEM);
    }

    /**
     * Runs the harness pass ({@link HarnessPass}: the same settings, a 1 us operation instead of
     * {@code operation}), then {@code operation} as {@code settings} ask, both on the system clock, and
     * returns the second with the first as its {@link OpenLoopResult#harness()}: the floor of its figures,
     * timed the same way in the same JVM.
     */
    public static OpenLoopResult runWithHarness(OpenLoopSettings settings, Operation operation) {
        return runWithHarness(settings, operation, Clock.SYSTEM);
    }

    /** {@link #runWithHarness(OpenLoopSettings, Operation)} timed and paced by {@code clock}. */
    static OpenLoopResult runWithHarness(OpenLoopSettings settings, Operation operation, Clock clock) {
        OpenLoopResult harness = run(settings, HarnessPass.operation(clock), clock);
        return run(settings, operation, clock).withHarness(harness);
    }

    /**
     * Runs {@code operation} as {@code settings} ask, timed and paced by {@code clock}.
     *
     * @throws IllegalStateException when an operation threw (its exception is the cause) or a worker hung
     */
    public static OpenLoopResult run(OpenLoopSettings settings, Operation operation, Clock clock) {
        int threads = settings.threads();
        int processors = Runtime.getRuntime().availableProcessors();
        if (threads > processors && !settings.spinAhead().isZero() && TOLD.compareAndSet(false, true)) {
            System.err.println("open-loop driver: " + threads + " threads on " + processors + " processors: at most "
                    + processors + " spin to their due times at once, the others park and wake late by the kernel's"
                    + " timer slack; the harness pass measures that floor");
        }
        AtomicInteger spinning = new AtomicInteger();
        Worker[] workers = new Worker[threads];
        SplittableRandom seeds = new SplittableRandom(settings.seed());
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Window window = new Window();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SpinAhead wait = new SpinAhead(clock, settings.spinAhead().toNanos(), threads * 1e9 / settings.rate(),
                    spinning, processors);
            Worker w = new Worker(t, settings, operation, clock, wait, seeds.split(), window, failure);
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
        Map<OpType, Long> censored = new EnumMap<>(OpType.class);
        for (OpType type : settings.mix().types()) {
            byType.put(type, new Histogram(3));
        }
        long recorded = 0;
        long lastDone = window.end;
        long sink = 0;
        long spun = 0;
        double lead = 0;
        for (Worker w : workers) {
            w.histograms.forEach((type, h) -> byType.get(type).add(h));
            w.censored.forEach((type, n) -> censored.merge(type, n, Long::sum));
            recorded += w.recorded;
            lastDone = Math.max(lastDone, w.lastDone);
            sink += w.sink;
            spun += w.wait.spun();
            lead += w.wait.lead();
        }
        double seconds = (lastDone - window.measureStart) / 1e9;
        return new OpenLoopResult(byType, censored, settings.rate(), recorded / seconds, sink,
                spun / (double) (window.end - window.origin), lead / workers.length / 1_000.0);
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
        private final SpinAhead wait;
        private final SplittableRandom random;
        private final Window window;
        private final AtomicReference<Throwable> failure;
        private final Map<OpType, Histogram> histograms = new EnumMap<>(OpType.class);
        private final Map<OpType, Long> censored = new EnumMap<>(OpType.class);
        private long recorded;
        private long lastDone;
        private long sink;

        Worker(int thread, OpenLoopSettings settings, Operation operation, Clock clock, SpinAhead wait,
                SplittableRandom random, Window window, AtomicReference<Throwable> failure) {
            this.thread = thread;
            this.settings = settings;
            this.operation = operation;
            this.clock = clock;
            this.wait = wait;
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
                    censor(schedule, i);
                    return;
                }
                wait.await(due);
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

        /**
         * Records the operations from index {@code first} that are due in the measured period, none of them
         * started, at the grace's end minus their due time, each of a kind drawn as it would have been.
         */
        private void censor(Schedule schedule, long first) {
            for (long i = first, due = schedule.due(i); due < window.end; due = schedule.due(++i)) {
                OpType type = settings.mix().next(random);
                if (due >= window.measureStart) {
                    histograms.get(type).recordValue(window.hardStop - due);
                    censored.merge(type, 1L, Long::sum);
                }
            }
        }
    }
}
