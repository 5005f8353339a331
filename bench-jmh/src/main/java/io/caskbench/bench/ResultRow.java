package io.caskbench.bench;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * One benchmark result, flattened for summaries: which benchmark with which parameters, its score and
 * error, and its secondary metrics.
 *
 * @param className simple name of the benchmark class
 * @param method benchmark method
 * @param params JMH parameters, sorted by name
 * @param threads JMH worker threads
 * @param score primary score
 * @param error half-width of the 99.9% confidence interval; NaN when JMH had too few samples
 * @param unit unit of the score, e.g. {@code ops/s}
 * @param secondary secondary metric scores by label
 */
public record ResultRow(String className, String method, Map<String, String> params, int threads, double score,
        double error, String unit, Map<String, Double> secondary) {

    /** Copies the maps. */
    public ResultRow {
        params = new TreeMap<>(params);
        secondary = new TreeMap<>(secondary);
    }

    /** Flattens JMH's results. */
    public static List<ResultRow> of(Collection<RunResult> results) {
        return results.stream().map(ResultRow::of).collect(Collectors.toList());
    }

    /** Flattens one JMH result. */
    public static ResultRow of(RunResult run) {
        BenchmarkParams bp = run.getParams();
        String benchmark = bp.getBenchmark();
        int dot = benchmark.lastIndexOf('.');
        String fqcn = benchmark.substring(0, dot);
        Map<String, String> params = new TreeMap<>();
        for (String key : bp.getParamsKeys()) {
            params.put(key, bp.getParam(key));
        }
        Result<?> primary = run.getPrimaryResult();
        Map<String, Double> secondary = new TreeMap<>();
        run.getSecondaryResults().forEach((name, result) -> secondary.put(name, result.getScore()));
        return new ResultRow(fqcn.substring(fqcn.lastIndexOf('.') + 1), benchmark.substring(dot + 1), params,
                bp.getThreads(), primary.getScore(), primary.getScoreError(), primary.getScoreUnit(), secondary);
    }

    /** {@code Class.method}. */
    public String name() {
        return className + "." + method;
    }

    /** A parameter's value, or {@code null}. */
    public String param(String key) {
        return params.get(key);
    }

    /** Parameters other than {@code except}, as {@code k=v k=v}. */
    public String paramsWithout(String... except) {
        Map<String, String> rest = new TreeMap<>(params);
        for (String key : except) {
            rest.remove(key);
        }
        return rest.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
