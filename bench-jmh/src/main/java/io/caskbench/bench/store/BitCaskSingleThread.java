package io.caskbench.bench.store;

import io.caskbench.bitcask.Backend;
import org.openjdk.jmh.annotations.Param;

/**
 * Why: how BitCask's two backends behave across store size, value size and access order, one thread,
 * no contention. Compare FILE_CHANNEL with MAPPED row by row. The suite runs the grid keyCount
 * {100k, 1M} x valueSize {100, 4080} x order {SEQUENTIAL, RANDOM} (the quick profile: 100k only).
 *
 * <p>Everything the workload does is in {@link SingleThreadWorkload}; this class only declares the
 * backend.
 */
public class BitCaskSingleThread extends SingleThreadWorkload {

    /** BitCask backend; both by default. Read by the fixtures through {@code BenchmarkParams}. */
    @Param
    public Backend backend;
}
