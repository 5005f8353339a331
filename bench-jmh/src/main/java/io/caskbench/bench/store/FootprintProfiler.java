package io.caskbench.bench.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Adds the {@link Footprint} of the filled store to every iteration's results, so heap and disk bytes
 * per key end up in JMH's JSON as secondary metrics next to the throughput they belong to, and the keys
 * the put store held ({@link KeysInStore}). Reports nothing for benchmarks that publish neither.
 */
public final class FootprintProfiler implements InternalProfiler {

    /** JMH instantiates profilers reflectively. */
    public FootprintProfiler() {
    }

    @Override
    public String getDescription() {
        return "heap and disk bytes per key of the filled store, keys held by the put store";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // The footprint is measured in the trial setup; the keys held are sampled per iteration.
        KeysInStore.clear();
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        List<Result<?>> results = new ArrayList<>();
        double keys = KeysInStore.mean();
        if (keys >= 0) {
            results.add(new ScalarResult(KeysInStore.METRIC, keys, "keys", AggregationPolicy.AVG));
        }
        Footprint footprint = Footprint.current();
        if (footprint == null) {
            return results;
        }
        results.add(new ScalarResult(Footprint.HEAP, footprint.heapBytesPerKey(), "B/key", AggregationPolicy.AVG));
        results.add(new ScalarResult(Footprint.DISK, footprint.diskBytesPerKey(), "B/key", AggregationPolicy.AVG));
        if (footprint.indexBytesPerKey() >= 0) {
            results.add(new ScalarResult(Footprint.INDEX, footprint.indexBytesPerKey(), "B/key",
                    AggregationPolicy.AVG));
        }
        return results;
    }
}
