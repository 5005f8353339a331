package io.caskbench.bench.openloop;

import java.time.Duration;
import java.util.Locale;

/**
 * The harness pass: the driver run with an operation that does nothing for 1 us, at the same rate, threads
 * and schedule as a measured run. What it records is the driver's own floor on that machine at that moment
 * (waking each thread on time, the wait for a core, recording): every figure of the measured run contains
 * it. {@link OpenLoopDriver#runWithHarness} runs it just before the measured pass, in the same JVM.
 *
 * <p>{@link #main} measures the floor alone, from the benchmarks jar:
 * <pre>
 * java -cp bench-jmh/target/benchmarks.jar io.caskbench.bench.openloop.HarnessPass RATE [THREADS [SECONDS [SPIN_US]]]
 * </pre>
 */
public final class HarnessPass {

    /** How long the harness operation spins, nanoseconds: about the least a real operation takes. */
    static final long OPERATION_NANOS = 1_000;

    private HarnessPass() {
    }

    /** The harness operation: spins on {@code clock} for {@link #OPERATION_NANOS} and returns 1. */
    static Operation operation(Clock clock) {
        return (thread, type) -> {
            long end = clock.nanoTime() + OPERATION_NANOS;
            while (clock.nanoTime() < end) {
                clock.spin();
            }
            return 1;
        };
    }

    /**
     * Measures the floor: {@code RATE} operations per second over {@code THREADS} threads (default 1), 2 s of
     * warm-up and {@code SECONDS} measured (default 10), a spin-ahead of at most {@code SPIN_US} microseconds
     * (default {@link OpenLoopSettings#DEFAULT_SPIN_AHEAD}; 0 parks only); prints the percentiles in
     * microseconds, the rates and the CPU the spinning took.
     */
    public static void main(String[] args) {
        if (args.length < 1 || args.length > 4) {
            System.err.println("usage: HarnessPass RATE [THREADS [SECONDS [SPIN_US]]]");
            System.exit(2);
        }
        double rate = Double.parseDouble(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        OpenLoopSettings.Builder b = OpenLoopSettings.builder().rate(rate).threads(threads)
                .warmup(Duration.ofSeconds(2)).measure(Duration.ofSeconds(seconds));
        if (args.length > 3) {
            b.spinAhead(Duration.ofNanos(Math.round(Double.parseDouble(args[3]) * 1_000)));
        }
        OpenLoopSettings settings = b.build();
        OpenLoopResult r = OpenLoopDriver.run(settings, operation(Clock.SYSTEM));
        System.out.printf(Locale.ROOT, "harness only: %.0f ops/s on %d threads, %d s, spin-ahead cap %d us, %d processors%n",
                rate, threads, seconds, settings.spinAhead().toNanos() / 1_000, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "p50 %.1f us  p99 %.1f us  p99.9 %.1f us  max %.1f us  (%d samples)%n",
                r.percentileMicros(50), r.percentileMicros(99), r.percentileMicros(99.9), r.percentileMicros(100),
                r.count());
        System.out.printf(Locale.ROOT, "achieved %.1f of %.1f ops/s, unfinished %d; spinning %.3f cores, spin-ahead %.1f us%n",
                r.achieved(), r.offered(), r.unfinished(), r.spinCores(), r.spinAheadMicros());
    }
}
