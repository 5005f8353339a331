package io.caskbench.shm;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of drawing positions alone, so it can be set against the random-write figures.
 *
 * <p>{@link #xorshift} is the loop of {@link RandomWriteBench} without the store. Because the stores do
 * not feed the PRNG chain, an out-of-order core overlaps the two: subtracting gives a lower bound on
 * the store cost, not an exact one. {@link #jdkRandom} is the seed's {@code Random.nextInt(size)}, to
 * show how much of the seed's 11.7 ns per write was the PRNG.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PrngBench {

    /** PRNG state and the mask of the region size. */
    @State(Scope.Thread)
    public static class PrngState {
        /** Region size ({@link RegionSize}); only its mask matters here. */
        @Param({"64KiB", "1GiB"})
        public String region;

        int size;
        int mask;
        int x = XorShift.SEED;
        final Random random = new Random(XorShift.SEED);

        /** Derives the mask. */
        @Setup(Level.Trial)
        public void open() {
            size = RegionSize.parse(region);
            mask = size - 1;
        }
    }

    /** xorshift32 and the mask, summed so nothing is dead. */
    @Benchmark
    @OperationsPerInvocation(RandomWriteBench.WRITES)
    public int xorshift(PrngState s) {
        int mask = s.mask;
        int x = s.x;
        int sum = 0;
        for (int i = 0; i < RandomWriteBench.WRITES; i++) {
            x = XorShift.next(x);
            sum += x & mask;
        }
        s.x = x;
        return sum;
    }

    /** The seed's {@code java.util.Random.nextInt(size)} (an atomic compare-and-set per call). */
    @Benchmark
    @OperationsPerInvocation(RandomWriteBench.WRITES)
    public int jdkRandom(PrngState s) {
        Random r = s.random;
        int size = s.size;
        int sum = 0;
        for (int i = 0; i < RandomWriteBench.WRITES; i++) {
            sum += r.nextInt(size);
        }
        return sum;
    }
}
