package io.caskbench.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Random 1-byte writes into a region: the seed's first question, and how much of Java's gap to C is
 * the access method rather than the memory.
 *
 * <p>Every variant draws positions from {@link XorShift} (timed alone by {@link PrngBench}) and writes
 * {@link #WRITES} bytes per invocation, reported per write. It must not measure page faults (the region
 * is touched at setup) nor a different PRNG per variant. C does the same loop in region_bench.c.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:MaxDirectMemorySize=2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RandomWriteBench {

    /** Writes per invocation: enough to hide the timer, few enough to keep iterations fine-grained. */
    public static final int WRITES = 4096;

    /** The byte the seed wrote (0b01010101). */
    static final byte VALUE = 0x55;

    /*
     * The JDK has no byte-sized ByteBuffer view VarHandle (byte[].class is rejected), so the VarHandle
     * variant rewrites the aligned little-endian long that holds the byte. Fixed LITTLE_ENDIAN keeps the
     * shift arithmetic the same on every platform.
     */
    private static final VarHandle WORDS =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The seed's method: relative position, get of a 1-byte array, change it, position, put it back. */
    @Benchmark
    @OperationsPerInvocation(WRITES)
    public int seedGetPut(RegionState s) {
        ByteBuffer b = s.buffer;
        byte[] one = s.one;
        int mask = s.mask;
        int x = s.x;
        for (int i = 0; i < WRITES; i++) {
            x = XorShift.next(x);
            int pos = x & mask;
            b.position(pos);
            b.get(one, 0, 1);
            one[0] = VALUE;
            b.position(pos);
            b.put(one, 0, 1);
        }
        s.x = x;
        return x;
    }

    /** Absolute {@code put(index, b)}: no position state, one bounds check. */
    @Benchmark
    @OperationsPerInvocation(WRITES)
    public int absolutePut(RegionState s) {
        ByteBuffer b = s.buffer;
        int mask = s.mask;
        int x = s.x;
        for (int i = 0; i < WRITES; i++) {
            x = XorShift.next(x);
            b.put(x & mask, VALUE);
        }
        s.x = x;
        return x;
    }

    /** A long VarHandle view: read the aligned word, replace the byte, write the word back. */
    @Benchmark
    @OperationsPerInvocation(WRITES)
    public int varHandleWord(RegionState s) {
        ByteBuffer b = s.buffer;
        int mask = s.mask;
        int x = s.x;
        for (int i = 0; i < WRITES; i++) {
            x = XorShift.next(x);
            int pos = x & mask;
            int word = pos & ~7;
            int shift = (pos & 7) << 3;
            long w = (long) WORDS.get(b, word);
            WORDS.set(b, word, (w & ~(0xFFL << shift)) | ((long) (VALUE & 0xFF) << shift));
        }
        s.x = x;
        return x;
    }

    /** {@code MemorySegment.set(JAVA_BYTE, offset, b)} on the same memory; JDK 22+ only. */
    @Benchmark
    @OperationsPerInvocation(WRITES)
    public int segmentSet(RegionState s) {
        Object seg = s.requireSegment();
        int mask = s.mask;
        int x = s.x;
        for (int i = 0; i < WRITES; i++) {
            x = XorShift.next(x);
            Segments.setByte(seg, x & mask, VALUE);
        }
        s.x = x;
        return x;
    }
}
