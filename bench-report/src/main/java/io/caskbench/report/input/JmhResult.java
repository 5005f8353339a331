package io.caskbench.report.input;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One entry of a JMH JSON result file: one benchmark method with one parameter set.
 *
 * <p>Only the fields the report uses are modelled; anything else in the file is ignored, so results
 * written by newer JMH versions or by the non-JMH runners (same schema, fewer fields) read fine.
 *
 * @param benchmark fully qualified {@code package.Class.method}
 * @param mode JMH's short mode name: thrpt, avgt, sample, ss
 * @param threads threads per fork
 * @param forks forks
 * @param jvm path of the forked JVM
 * @param jdkVersion version of the forked JVM
 * @param params {@code @Param} values in declaration order (empty when none)
 * @param primaryMetric the measured score
 * @param secondaryMetrics profiler and auxiliary counters by name (empty when none)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record JmhResult(
        String benchmark,
        String mode,
        int threads,
        int forks,
        String jvm,
        String jdkVersion,
        Map<String, String> params,
        Metric primaryMetric,
        Map<String, Metric> secondaryMetrics) {

    /** Keeps parameter order, and replaces absent parts with empty ones. */
    public JmhResult {
        benchmark = benchmark == null ? "?" : benchmark;
        mode = mode == null ? "" : mode;
        params = params == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
        primaryMetric = primaryMetric == null ? Metric.of(Double.NaN, Double.NaN, "") : primaryMetric;
        secondaryMetrics = secondaryMetrics == null ? Map.of() : secondaryMetrics;
    }

    /** A result with the fields the non-JMH runners fill, for tests and C anchors. */
    public static JmhResult of(String benchmark, String mode, Map<String, String> params, Metric primary) {
        return new JmhResult(benchmark, mode, 1, 1, null, null, params, primary, Map.of());
    }

    /** The part of {@link #benchmark()} before the method: {@code package.Class}. */
    @JsonIgnore
    public String className() {
        int dot = benchmark.lastIndexOf('.');
        return dot < 0 ? "" : benchmark.substring(0, dot);
    }

    /**
     * Forks that produced data: the per-fork lists of the primary metric's raw data that hold a value.
     * A fork that failed leaves none, so this can be below {@link #forks()}, the configured count. A
     * runner that records no raw data (the C anchors) counts as its configured forks.
     */
    @JsonIgnore
    public int measuredForks() {
        List<List<Double>> raw = primaryMetric.rawData();
        if (raw.isEmpty()) {
            return forks;
        }
        return (int) raw.stream().filter(f -> f != null && !f.isEmpty()).count();
    }

    /** Whether fewer forks produced data than were configured. */
    @JsonIgnore
    public boolean shortOfForks() {
        return measuredForks() < forks;
    }

    /** The fork count as a table shows it: {@code 3}, or {@code 2 of 3} when a configured fork left no data. */
    @JsonIgnore
    public String forksCell() {
        return shortOfForks() ? measuredForks() + " of " + forks : String.valueOf(measuredForks());
    }

    /** The benchmark method name. */
    @JsonIgnore
    public String methodName() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** {@code Class.method} without the package, as people read it. */
    @JsonIgnore
    public String shortName() {
        String cls = className();
        return cls.substring(cls.lastIndexOf('.') + 1) + (cls.isEmpty() ? "" : ".") + methodName();
    }

    /** The parameters as {@code k=v, k=v}, or an empty string. */
    @JsonIgnore
    public String paramsLabel() {
        return params.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /**
     * Identity of this result across runs: class and method, mode and parameters. The package is
     * left out, so a benchmark moved to another package is still compared with its earlier runs.
     */
    @JsonIgnore
    public String key() {
        return shortName() + " [" + mode + "]" + (params.isEmpty() ? "" : " {" + paramsLabel() + "}");
    }

    /** Whether a larger score is better: true for throughput, false for the time-per-operation modes. */
    @JsonIgnore
    public boolean higherIsBetter() {
        return Units.isRate(primaryMetric.scoreUnit()) || (primaryMetric.scoreUnit().isEmpty() && "thrpt".equals(mode));
    }

    /** The parameters with the given names left out, in declaration order. */
    public Map<String, String> paramsWithout(List<String> names) {
        Map<String, String> rest = new LinkedHashMap<>(params);
        names.forEach(rest::remove);
        return rest;
    }
}
