package io.caskbench.bench.store.threads;

import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.workload.Workload;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.consumer.RecordingStream;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Threading: the benchmark thread calls {@link #each}; the virtual threads it starts write only their
 * own slot of the sums and the shared counters, which are atomic.
 *
 * <p>{@link Gang}'s shape on virtual threads (JDK 21 and newer): each invocation starts {@code threads}
 * virtual threads, one per task as a server on virtual threads does, each doing its share of
 * {@code opsPerInvocation} operations, and waits for all of them. The virtual threads' start is measured:
 * it is part of that model, about a microsecond each, and so is each thread's read of the pool's size as
 * it ends. While the trial runs, a JFR stream counts
 * {@code jdk.VirtualThreadPinned} events (every pin, at a threshold of zero), and the size of the
 * virtual-thread scheduler's carrier pool is read as each virtual thread ends and after each invocation:
 * carriers above its parallelism are the ones the JDK added to make up for carriers blocked in file I/O
 * (on JDK 25: forces, and reads and writes of files opened for direct or synchronous I/O) or pinned.
 *
 * <p>Built with {@code --release 17}: virtual threads are reached by reflection, and a JVM older than 21
 * fails the trial's setup with a message that says so.
 */
@State(Scope.Benchmark)
public class VirtualGang {

    /** The longest one invocation may take before it fails. */
    static final Duration LIMIT = Gang.LIMIT;

    /** Makes virtual threads; set in setup. */
    private ThreadFactory factory;
    /** The virtual-thread scheduler, or null where it cannot be read (the carrier figure is then -1). */
    private ForkJoinPool scheduler;
    /** Counts pins as the JFR stream delivers them, about once a second. */
    private final AtomicLong pins = new AtomicLong();
    /**
     * The largest carrier pool seen this iteration, sampled as each virtual thread ends: carriers the JDK
     * adds while one blocks (a force, say) can be gone again once the invocation ends. Any thread, atomically.
     */
    private final AtomicInteger peakPool = new AtomicInteger();
    private RecordingStream stream;
    /** Each virtual thread's key buffer, by its index, made by that thread on first use. */
    private byte[][] keyBuffers;
    private int threads;
    private int opsPerThread;
    /** Pins already handed to {@link CarrierCounters}; benchmark thread only. */
    private long pinsReported;
    /** The scheduler's parallelism, read in setup: the pool's size before the JDK adds carriers. */
    private int parallelism;

    /** JMH creates the state and starts it in {@link #start(BenchmarkParams)}. */
    public VirtualGang() {
    }

    /** Reads {@code threads} and JMH's operations per invocation, and starts counting pins. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
        threads = Integer.parseInt(params.getParam("threads"));
        int ops = params.getOpsPerInvocation();
        if (ops % threads != 0) {
            throw new IllegalStateException("operations per invocation (" + ops + ") must be a multiple of the "
                    + threads + " virtual threads");
        }
        opsPerThread = ops / threads;
        keyBuffers = new byte[threads][];
        factory = virtualThreadFactory();
        scheduler = scheduler();
        parallelism = scheduler == null ? 0 : scheduler.getParallelism();
        stream = new RecordingStream();
        stream.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
        stream.onEvent("jdk.VirtualThreadPinned", e -> pins.incrementAndGet());
        stream.startAsync();
    }

    /** Starts each iteration's largest pool at the pool's size now. */
    @Setup(Level.Iteration)
    public void startIteration() {
        peakPool.set(scheduler == null ? 0 : scheduler.getPoolSize());
    }

    /** Stops counting pins. */
    @TearDown(Level.Trial)
    public void stop() {
        if (stream != null) {
            stream.close();
        }
    }

    /** Virtual threads per invocation. */
    public int threads() {
        return threads;
    }

    /** Operations each virtual thread does. */
    public int opsPerThread() {
        return opsPerThread;
    }

    /**
     * Starts every virtual thread, each doing its {@link #opsPerThread()} operations through {@code op}, and
     * waits for them; returns the sum of what the operations returned. Fails when a thread failed or the
     * invocation ran past {@link #LIMIT}.
     */
    public long each(Gang.Op op) {
        long[] sums = new long[threads];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] started = new Thread[threads];
        int ops = opsPerThread;
        for (int t = 0; t < threads; t++) {
            int index = t;
            started[t] = factory.newThread(() -> {
                try {
                    long sum = 0;
                    for (int j = 0; j < ops; j++) {
                        sum += op.apply(index, j);
                    }
                    sums[index] = sum;
                    samplePool();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            started[t].start();
        }
        long deadline = System.nanoTime() + LIMIT.toNanos();
        try {
            for (Thread thread : started) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
                if (thread.isAlive()) {
                    throw new IllegalStateException(String.format(Locale.ROOT,
                            "%d virtual threads did not finish within %d s; no figure recorded", threads, LIMIT.toSeconds()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a virtual thread failed", failure.get());
        }
        long total = 0;
        for (long sum : sums) {
            total += sum;
        }
        return total;
    }

    /** Virtual thread {@code t}'s key buffer; only the thread of index {@code t} calls this for its {@code t}. */
    public byte[] keyBuffer(int t, Workload workload) {
        byte[] buffer = keyBuffers[t];
        if (buffer == null) {
            buffer = keyBuffers[t] = workload.keyBuffer();
        }
        return buffer;
    }

    /** Pins counted since the last call; benchmark thread. */
    long newPins() {
        long now = pins.get();
        long added = now - pinsReported;
        pinsReported = now;
        return added;
    }

    /** Notes the pool's size if it is the largest this iteration; a virtual thread as it ends, or the benchmark thread. */
    private void samplePool() {
        if (scheduler != null) {
            int size = scheduler.getPoolSize();
            if (size > peakPool.get()) {
                peakPool.accumulateAndGet(size, Math::max);
            }
        }
    }

    /**
     * The most carriers the pool held beyond its parallelism this iteration (never negative), sampled as each
     * virtual thread ended and now: those the JDK added while carriers were blocked in a force or pinned; -1
     * where the pool cannot be read. Benchmark thread.
     */
    long extraCarriers() {
        if (scheduler == null) {
            return -1;
        }
        samplePool();
        return Math.max(0, peakPool.get() - parallelism);
    }

    /** {@code Thread.ofVirtual().factory()}, by reflection. */
    static ThreadFactory virtualThreadFactory() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Method factory = Class.forName("java.lang.Thread$Builder").getMethod("factory");
            return (ThreadFactory) factory.invoke(builder);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            throw new IllegalStateException("virtual threads need JDK 21 or newer; this is " + Runtime.version(), e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make virtual threads: " + e, e);
        }
    }

    /** The JDK's virtual-thread scheduler, read through the fork's {@code --add-opens java.base/java.lang}; null if hidden. */
    private static ForkJoinPool scheduler() {
        try {
            Field f = Class.forName("java.lang.VirtualThread").getDeclaredField("DEFAULT_SCHEDULER");
            f.setAccessible(true);
            return f.get(null) instanceof ForkJoinPool pool ? pool : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** For tests: waits up to {@code seconds} for the pin count to stop growing, which the stream delivers late. */
    long settledPins(int seconds) throws InterruptedException {
        long last = -1;
        for (int i = 0; i < seconds * 4 && pins.get() != last; i++) {
            last = pins.get();
            TimeUnit.MILLISECONDS.sleep(250);
        }
        return pins.get();
    }
}
