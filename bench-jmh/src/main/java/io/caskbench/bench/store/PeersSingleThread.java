package io.caskbench.bench.store;

import io.caskbench.bench.store.adapter.StoreKind;
import org.openjdk.jmh.annotations.Param;

/**
 * Why: the question every user asks, how fast is BitCask compared with what I would use instead. Every
 * store, BitCask's backends included, runs the same single-threaded workload in one JMH run, each with
 * its fastest settings that do not fsync per operation (see each adapter).
 *
 * <p>The suite runs it at the point the performance targets are stated at: 1M keys of 16 bytes,
 * 100-byte values, random order. Heap and disk bytes per key are reported with the get results.
 */
public class PeersSingleThread extends SingleThreadWorkload {

    /** The store; all of them by default. Read by the fixtures through {@code BenchmarkParams}. */
    @Param
    public StoreKind store;
}
