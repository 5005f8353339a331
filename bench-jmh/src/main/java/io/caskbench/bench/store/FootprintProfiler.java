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
 * per key end up in JMH's JSON as secondary metrics next to the throughput they belong to. Reports
 * nothing for benchmarks that publish no footprint.
 */
public final class FootprintProfiler implements InternalProfiler {

    /** JMH instantiates profilers reflectively. */
    public FootprintProfiler() {
    }

    @Override
    public String getDescription() {
        return "heap and disk bytes per key of the filled store";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // The footprint is measured in the trial setup; nothing to do per iteration.
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        Footprint footprint = Footprint.current();
        if (footprint == null) {
            return List.of();
        }
        List<Result<?>> results = new ArrayList<>();
        results.add(new ScalarResult(Footprint.HEAP, footprint.heapBytesPerKey(), "B/key", AggregationPolicy.AVG));
        results.add(new ScalarResult(Footprint.DISK, footprint.diskBytesPerKey(), "B/key", AggregationPolicy.AVG));
        if (footprint.indexBytesPerKey() >= 0) {
            results.add(new ScalarResult(Footprint.INDEX, footprint.indexBytesPerKey(), "B/key",
                    AggregationPolicy.AVG));
        }
        return results;
    }
}
