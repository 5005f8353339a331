package io.caskbench.shm;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Zeroing the whole region: the seed found Java 8x slower than C's memset and blamed
 * MappedByteBuffer. Its method allocated a region-sized array per clear; these variants separate that
 * allocation from the copy and from the store loop.
 *
 * <p>One clear per invocation (64 KiB takes microseconds, far above timer resolution). It must not
 * measure page faults: the region is touched at setup and stays mapped.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:MaxDirectMemorySize=2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ClearBench {

    /** The seed's clear: a new zero array of the region's size every time, relative bulk put. */
    @Benchmark
    public ByteBuffer seedNewArray(RegionState s) {
        ByteBuffer b = s.buffer;
        b.position(0);
        b.put(new byte[s.size], 0, s.size);
        return b;
    }

    /** Bulk put of one reused zero array (at most {@link RegionState#ZERO_CHUNK} bytes, repeated). */
    @Benchmark
    public ByteBuffer reusedZeroArray(RegionState s) {
        ByteBuffer b = s.buffer;
        byte[] zeros = s.zeros;
        for (int off = 0; off < s.size; off += zeros.length) {
            b.put(off, zeros, 0, zeros.length);
        }
        return b;
    }

    /** Absolute {@code putLong(i, 0)} over the region, eight bytes per store. */
    @Benchmark
    public ByteBuffer putLongLoop(RegionState s) {
        ByteBuffer b = s.buffer;
        int size = s.size;
        for (int i = 0; i < size; i += 8) {
            b.putLong(i, 0L);
        }
        return b;
    }

    /** {@code MemorySegment.fill((byte) 0)}, the FFM API's memset; JDK 22+ only. */
    @Benchmark
    public Object segmentFill(RegionState s) {
        return Segments.fill(s.requireSegment(), (byte) 0);
    }
}
