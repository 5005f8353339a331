package io.caskbench.bench.store.overwrite;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Carries a sustained-overwrite run's {@link OverwriteSummary} into JMH's results as secondary metrics,
 * one value per fork (the run is one iteration). The benchmark {@link #publish}es its figures in the forked
 * JVM this profiler runs in, and calls {@link #requireAttached()} first, so a run without
 * {@code -prof} of this class fails instead of losing them.
 */
public final class OverwriteProfiler implements InternalProfiler {

    /** Whether JMH runs this profiler in this JVM; set before each iteration. */
    private static volatile boolean attached;
    /** The figures of the iteration that just ran; written by the benchmark thread, taken by the profiler. */
    private static volatile Map<String, Double> published;

    /** JMH instantiates profilers reflectively. */
    public OverwriteProfiler() {
    }

    /** Hands the run's figures to the profiler. */
    public static void publish(Map<String, Double> figures) {
        published = Map.copyOf(figures);
    }

    /** Fails unless this profiler runs in this JVM. */
    public static void requireAttached() {
        if (!attached) {
            throw new IllegalStateException("the overwrite benchmark needs its profiler to report: add -prof "
                    + OverwriteProfiler.class.getName());
        }
    }

    @Override
    public String getDescription() {
        return "sustained-overwrite summary: space and write amplification, throughput drift, latency";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        attached = true;
        published = null;
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult iterationResult) {
        Map<String, Double> figures = published;
        published = null;
        List<Result<?>> out = new ArrayList<>();
        if (figures != null) {
            figures.forEach((name, value) -> out.add(new ScalarResult(name, value, unit(name),
                    name.endsWith("Max") || name.endsWith("max") || name.endsWith("Worst")
                            ? AggregationPolicy.MAX : AggregationPolicy.AVG)));
        }
        return out;
    }

    /** The unit a figure is reported in, by its name. */
    static String unit(String name) {
        if (name.contains(":")) {
            return "us";
        }
        return switch (name) {
            case "p50", "p99", "p99.9", "max" -> "us";
            case "achieved", "offered" -> "ops/s";
            case "compactions" -> "count";
            case "unfinished" -> "ops";
            case "compactionMillis", "longestCompactionMillis" -> "ms";
            case "largestCompactionBytes", "compactionInputBound" -> "bytes";
            default -> "ratio";
        };
    }
}
