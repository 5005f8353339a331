package io.caskbench.shm;

import java.nio.ByteBuffer;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One region per trial, shared by {@link RandomWriteBench} and {@link ClearBench}.
 *
 * <p>Set up per trial because allocating, touching and (for disk) writing back a gigabyte is exactly
 * what the measurement must not include; torn down per trial so the next fork starts with the memory free.
 */
@State(Scope.Thread)
public class RegionState {

    /** Largest zero array {@link ClearBench#reusedZeroArray} keeps; bigger regions are cleared in chunks. */
    public static final int ZERO_CHUNK = 1 << 16;

    /** What the region is made of: a {@link Backing} label. */
    @Param({"disk", "shm", "direct", "heap"})
    public String backing;

    /** Region size ({@link RegionSize}); the seed used 64 KB and 1 GB. */
    @Param({"64KiB", "1GiB"})
    public String region;

    /** The region itself. */
    public ByteBuffer buffer;
    /** {@code MemorySegment.ofBuffer(buffer)} on JDK 22+, else null. */
    public Object segment;
    /** Region size in bytes. */
    public int size;
    /** {@code size - 1}: turns a random int into a position. */
    public int mask;
    /** PRNG state, carried across invocations so every invocation writes new positions. */
    public int x = XorShift.SEED;
    /** The seed's one-byte transfer array. */
    public final byte[] one = new byte[1];
    /** A reused zero array of {@code min(size, ZERO_CHUNK)} bytes. */
    public byte[] zeros;

    private Region open;

    /** Allocates and touches the region. */
    @Setup(Level.Trial)
    public void open() {
        size = RegionSize.parse(region);
        mask = size - 1;
        open = Backing.of(backing).open(size);
        buffer = open.buffer();
        segment = Segments.AVAILABLE ? Segments.ofBuffer(buffer) : null;
        zeros = new byte[Math.min(size, ZERO_CHUNK)];
    }

    /** Forces, unmaps and deletes (or frees) the region. */
    @TearDown(Level.Trial)
    public void close() {
        segment = null;
        buffer = null;
        open.close();
    }

    /** The segment, or a clear failure when a MemorySegment benchmark is run on a JDK before 22. */
    Object requireSegment() {
        if (segment == null) {
            throw new UnsupportedOperationException("MemorySegment benchmarks need JDK 22+, this is "
                    + Runtime.version() + "; ShmMain excludes them automatically");
        }
        return segment;
    }
}
