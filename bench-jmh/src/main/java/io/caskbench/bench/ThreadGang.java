package io.caskbench.bench;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed set of platform threads, started once, that run one task together on demand.
 *
 * <p>This is how the suites measure oversubscribed throughput (many more threads than cores): a
 * benchmark invocation calls {@link #run(Task)}, which releases every thread, waits until the last one
 * has finished, and returns. Total operations divided by that wall time is the honest figure. JMH's own
 * {@code @Threads(N)} instead adds up per-thread rates measured over different windows, which overstates
 * throughput by orders of magnitude once N is far above the core count.
 *
 * <p>Starting the threads is not part of a run; releasing and joining them is, as it would be in any
 * server that hands work to a pool.
 */
public final class ThreadGang implements AutoCloseable {

    /** The work of one thread in one run. */
    @FunctionalInterface
    public interface Task {
        /**
         * Does this thread's share of the run.
         *
         * @param thread index of the thread in the gang, 0 .. size-1
         */
        void run(int thread) throws Exception;
    }

    private final Thread[] threads;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Task task;
    private volatile int generation;
    private volatile boolean closed;
    private volatile boolean stopRequested;
    private volatile Thread waiter;

    /** Starts {@code size} platform threads that wait for the first {@link #run}. */
    public ThreadGang(int size, String name) {
        if (size < 1) {
            throw new IllegalArgumentException("gang size must be positive: " + size);
        }
        threads = new Thread[size];
        for (int i = 0; i < size; i++) {
            int index = i;
            Thread thread = new Thread(() -> loop(index), name + "-" + i);
            thread.setDaemon(true);
            threads[i] = thread;
        }
        for (Thread thread : threads) {
            thread.start();
        }
    }

    /** Number of threads. */
    public int size() {
        return threads.length;
    }

    /**
     * Runs {@code task} on every thread at once and returns when all have finished. Not reentrant: one
     * caller at a time.
     *
     * @throws IllegalStateException wrapping the first failure of any thread
     */
    public void run(Task task) {
        if (!run(task, null)) {
            throw new AssertionError("a run without a time limit cannot time out");
        }
    }

    /**
     * Like {@link #run(Task)}, but once {@code limit} has passed {@link #stopRequested()} turns true,
     * so that tasks which poll it finish early. A store that collapses under contention then costs a
     * bounded time instead of stalling the whole suite.
     *
     * @param limit the time allowed, or {@code null} for none
     * @return true when every task finished before the limit
     * @throws IllegalStateException wrapping the first failure of any thread
     */
    public boolean run(Task task, Duration limit) {
        if (closed) {
            throw new IllegalStateException("gang is closed");
        }
        this.task = task;
        stopRequested = false;
        waiter = Thread.currentThread();
        pending.set(threads.length);
        long deadline = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
        generation++;
        for (Thread thread : threads) {
            LockSupport.unpark(thread);
        }
        while (pending.get() != 0) {
            if (limit == null) {
                LockSupport.park(this);
            } else if (System.nanoTime() >= deadline) {
                stopRequested = true;
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, deadline - System.nanoTime());
            }
        }
        Throwable failed = failure.getAndSet(null);
        if (failed != null) {
            throw new IllegalStateException("a gang thread failed: " + failed, failed);
        }
        return !stopRequested;
    }

    /** True once the current run's time limit has passed; tasks poll it to finish early. */
    public boolean stopRequested() {
        return stopRequested;
    }

    private void loop(int index) {
        int seen = 0;
        while (true) {
            while (generation == seen && !closed) {
                LockSupport.park(this);
            }
            if (closed) {
                return;
            }
            seen = generation;
            try {
                task.run(index);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
            if (pending.decrementAndGet() == 0) {
                LockSupport.unpark(waiter);
            }
        }
    }

    /** Stops and joins every thread. */
    @Override
    public void close() {
        closed = true;
        for (Thread thread : threads) {
            LockSupport.unpark(thread);
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
