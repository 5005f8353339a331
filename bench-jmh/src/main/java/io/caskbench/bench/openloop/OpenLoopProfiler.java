package io.caskbench.bench.openloop;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.util.SampleBuffer;

/**
 * Carries an open-loop benchmark's {@link OpenLoopResult} into JMH's results, so it reaches the JSON.
 *
 * <p>An open-loop benchmark runs in {@code SingleShotTime} mode: one invocation drives the load for the
 * whole warm-up and measured period, and {@link #publish}es its result; after the iteration this profiler
 * turns it into secondary metrics. Per iteration, and so per fork (one measured iteration each):
 * <ul>
 *   <li>{@code p50}, {@code p99}, {@code p99.9}, {@code max}: every operation's latency in microseconds,
 *       and the same per kind, {@code get:p99} and so on, when the mix has more than one kind;</li>
 *   <li>{@code offered} and {@code achieved} in operations per second, and {@code unfinished} (operations
 *       the grace ran out on, censored into the percentiles at the run's end);</li>
 *   <li>{@code latency} (and {@code get:latency}, {@code put:latency}): the whole distribution;</li>
 *   <li>{@code spinCores} and {@code spinAhead}: the cores the waits spent spinning before due times, and
 *       the threads' spin-ahead at the end in microseconds;</li>
 *   <li>when the run had a harness pass ({@link OpenLoopDriver#runWithHarness}): the same for all of its
 *       operations, prefixed {@code harness:} ({@code harness:p50}, {@code harness:p99},
 *       {@code harness:p99.9}, {@code harness:max}, {@code harness:count}, {@code harness:latency}), and its
 *       {@code harness:achieved}.</li>
 * </ul>
 *
 * <p>Why a profiler and not {@code @AuxCounters}: auxiliary counters are summed or averaged as rates or
 * event counts across threads and iterations, which is meaningless for a percentile, while a profiler's
 * {@link ScalarResult} is one value per iteration that JMH keeps per fork in the JSON's {@code rawData}.
 * Its {@code score} is the mean of the forks' values ({@code max}: the largest), which the report never
 * takes for a percentile of the pooled samples. That pooled percentile comes from the distribution
 * metrics: each is a {@link SampleTimeResult}, which JMH merges sample by sample across forks, so its
 * {@code scorePercentiles} in the JSON are the percentiles of all forks' samples together (to JMH's 1/1024
 * bucket precision).
 *
 * <p>The benchmark and this profiler meet in a static field, as they share the forked JVM: the benchmark
 * calls {@link #requireAttached()} in its setup, which fails a run started without
 * {@code -prof io.caskbench.bench.openloop.OpenLoopProfiler}, so a result is never silently dropped.
 */
public final class OpenLoopProfiler implements InternalProfiler {

    /** The median's metric name. */
    public static final String P50 = "p50";
    /** The 99th percentile's metric name. */
    public static final String P99 = "p99";
    /** The 99.9th percentile's metric name. */
    public static final String P999 = "p99.9";
    /** The largest sample's metric name. */
    public static final String MAX = "max";
    /** The asked rate's metric name. */
    public static final String OFFERED = "offered";
    /** The done rate's metric name. */
    public static final String ACHIEVED = "achieved";
    /** The count of operations the grace ran out on. */
    public static final String UNFINISHED = "unfinished";
    /** The cores spent spinning before due times. */
    public static final String SPIN_CORES = "spinCores";
    /** The threads' spin-ahead at the run's end, microseconds. */
    public static final String SPIN_AHEAD = "spinAhead";
    /** The prefix of the harness pass's metrics. */
    public static final String HARNESS = "harness:";
    /** The distribution's metric name. */
    public static final String LATENCY = "latency";
    /**
     * The samples' metric name: how many operations the percentiles rest on, per fork, so the report can
     * refuse to judge a p99.9 that is the second-largest of 1,250 samples.
     */
    public static final String COUNT = "count";

    /** Whether a profiler was attached in this JVM; set before each iteration. */
    private static volatile boolean attached;
    /** The result of the iteration that just ran; written by the benchmark thread, taken by the profiler. */
    private static volatile OpenLoopResult published;

    /** JMH instantiates profilers reflectively. */
    public OpenLoopProfiler() {
    }

    /** Hands the invocation's result to the profiler; the benchmark calls it once per invocation. */
    public static void publish(OpenLoopResult result) {
        published = result;
    }

    /** Fails unless JMH runs this profiler in this JVM: without it the run's figures would be lost. */
    public static void requireAttached() {
        if (!attached) {
            throw new IllegalStateException("an open-loop benchmark needs its profiler to report: add -prof "
                    + OpenLoopProfiler.class.getName());
        }
    }

    @Override
    public String getDescription() {
        return "open-loop latency percentiles, offered and achieved rates";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        attached = true;
        published = null;
    }

    @Override
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult iterationResult) {
        OpenLoopResult result = published;
        published = null;
        return result == null ? List.of() : results(result);
    }

    /** The secondary metrics of one result, as {@link #afterIteration} returns them. */
    static List<Result<?>> results(OpenLoopResult result) {
        List<Result<?>> out = new ArrayList<>();
        add(out, "", result.histogram());
        if (result.types().size() > 1) {
            for (OpType type : result.types()) {
                add(out, type.label() + ":", result.histogram(type));
            }
        }
        out.add(new ScalarResult(OFFERED, result.offered(), "ops/s", AggregationPolicy.AVG));
        out.add(new ScalarResult(ACHIEVED, result.achieved(), "ops/s", AggregationPolicy.AVG));
        out.add(new ScalarResult(UNFINISHED, result.unfinished(), "ops", AggregationPolicy.AVG));
        out.add(new ScalarResult(SPIN_CORES, result.spinCores(), "cores", AggregationPolicy.AVG));
        out.add(new ScalarResult(SPIN_AHEAD, result.spinAheadMicros(), "us", AggregationPolicy.AVG));
        result.harness().ifPresent(h -> {
            add(out, HARNESS, h.histogram());
            out.add(new ScalarResult(HARNESS + ACHIEVED, h.achieved(), "ops/s", AggregationPolicy.AVG));
        });
        return out;
    }

    private static void add(List<Result<?>> out, String prefix, Histogram ns) {
        if (ns.getTotalCount() == 0) {
            return;
        }
        out.add(micros(prefix + P50, ns.getValueAtPercentile(50)));
        out.add(micros(prefix + P99, ns.getValueAtPercentile(99)));
        out.add(micros(prefix + P999, ns.getValueAtPercentile(99.9)));
        out.add(new ScalarResult(prefix + MAX, ns.getMaxValue() / 1_000.0, "us", AggregationPolicy.MAX));
        out.add(new ScalarResult(prefix + COUNT, ns.getTotalCount(), "ops", AggregationPolicy.AVG));
        out.add(new SampleTimeResult(ResultRole.SECONDARY, prefix + LATENCY, samples(ns), TimeUnit.MICROSECONDS));
    }

    private static ScalarResult micros(String name, long nanos) {
        return new ScalarResult(name, nanos / 1_000.0, "us", AggregationPolicy.AVG);
    }

    /** The histogram's samples in JMH's own sample buffer (nanoseconds). */
    static SampleBuffer samples(Histogram ns) {
        SampleBuffer buffer = new SampleBuffer();
        for (HistogramIterationValue v : ns.recordedValues()) {
            long value = v.getValueIteratedTo();
            for (long c = v.getCountAtValueIteratedTo(); c > 0; c--) {
                buffer.add(value);
            }
        }
        return buffer;
    }
}
