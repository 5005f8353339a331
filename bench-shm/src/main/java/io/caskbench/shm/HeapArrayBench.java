package io.caskbench.shm;

import java.util.Arrays;
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
 * The baseline: a plain heap {@code byte[]} with no ByteBuffer in the way. What Java does at its
 * cheapest, so the ByteBuffer and mapped variants can be read as overhead over it.
 *
 * <p>Same PRNG, batch and region sizes as {@link RandomWriteBench} and {@link ClearBench}; it must not
 * measure allocation (the array lives for the whole trial).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HeapArrayBench {

    /** A heap array of the region size, alive for the trial. */
    @State(Scope.Thread)
    public static class ArrayState {
        /** Region size ({@link RegionSize}). */
        @Param({"64KiB", "1GiB"})
        public String region;

        byte[] array;
        int mask;
        int x = XorShift.SEED;

        /** Allocates the array (the JVM hands it out zeroed, so it is touched). */
        @Setup(Level.Trial)
        public void open() {
            array = new byte[RegionSize.parse(region)];
            mask = array.length - 1;
        }
    }

    /** {@code array[pos] = b}. */
    @Benchmark
    @OperationsPerInvocation(RandomWriteBench.WRITES)
    public int arrayStore(ArrayState s) {
        byte[] a = s.array;
        int mask = s.mask;
        int x = s.x;
        for (int i = 0; i < RandomWriteBench.WRITES; i++) {
            x = XorShift.next(x);
            a[x & mask] = RandomWriteBench.VALUE;
        }
        s.x = x;
        return x;
    }

    /** {@code Arrays.fill(array, 0)}. */
    @Benchmark
    public byte[] arrayFill(ArrayState s) {
        Arrays.fill(s.array, (byte) 0);
        return s.array;
    }
}
