package io.caskbench.bench;

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
        if (closed) {
            throw new IllegalStateException("gang is closed");
        }
        this.task = task;
        waiter = Thread.currentThread();
        pending.set(threads.length);
        generation++;
        for (Thread thread : threads) {
            LockSupport.unpark(thread);
        }
        while (pending.get() != 0) {
            LockSupport.park(this);
        }
        Throwable failed = failure.getAndSet(null);
        if (failed != null) {
            throw new IllegalStateException("a gang thread failed: " + failed, failed);
        }
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
