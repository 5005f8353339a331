package io.caskbench.bench.store.single;

import io.caskbench.bitcask.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Why: how BitCask's backends behave across store size, value size and access order, one thread,
 * no contention. Compare FILE_CHANNEL and MEMORY_SEGMENT with MAPPED row by row. The suite runs the grid keyCount
 * {100k, 1M} x valueSize {100, 4080} x order {SEQUENTIAL, RANDOM}, and in the full profile 10M keys with
 * 100-byte values in both orders (the quick profile: 100k only).
 *
 * <p>Everything the workload does is in {@link SingleThreadWorkload}, which lists what it must not
 * measure by accident; this class only declares the backend.
 */
public class BitCaskSingleThread extends SingleThreadWorkload {

    /**
     * BitCask backend; MAPPED and FILE_CHANNEL by default, the two every JDK has. MEMORY_SEGMENT (JDK 22+)
     * runs when named ({@code -p backend=MAPPED,MEMORY_SEGMENT}); the store suite adds it on such a JVM.
     * Read by the fixtures through {@code BenchmarkParams}.
     */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;
}
