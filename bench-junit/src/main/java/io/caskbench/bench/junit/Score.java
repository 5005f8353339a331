package io.caskbench.bench.junit;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One row of a {@link ScoreTable}: the score of one benchmark at one combination of parameters.
 *
 * @param benchmark the benchmark's name, for JMH its full name ({@code com.example.MyBench.get})
 * @param params    the parameter values of this row, sorted by name; empty when there are none
 * @param score     the mean score
 * @param error     half-width of the 99.9% confidence interval of the mean, in the same unit;
 *                  {@code NaN} when there were too few samples to estimate it
 * @param unit      the score's unit as JMH writes it, e.g. {@code ops/s} or {@code ops/ms}
 */
public record Score(String benchmark, SortedMap<String, String> params, double score, double error, String unit) {

    /** Validates the row and freezes its parameters. */
    public Score {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(unit, "unit");
        if (benchmark.isEmpty()) {
            throw new IllegalArgumentException("empty benchmark name");
        }
        params = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(params, "params")));
    }

    /** A row with parameters given as a map in any order. */
    public static Score of(String benchmark, Map<String, String> params, double score, double error, String unit) {
        return new Score(benchmark, new TreeMap<>(params), score, error, unit);
    }

    /** A row without parameters. */
    public static Score of(String benchmark, double score, double error, String unit) {
        return of(benchmark, Map.of(), score, error, unit);
    }

    /** The part of the benchmark name after the last dot: the method name for JMH benchmarks. */
    public String shortName() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** True when {@code name} is this row's full benchmark name or the part after one of its dots. */
    public boolean isNamed(String name) {
        return benchmark.equals(name) || benchmark.endsWith("." + name);
    }

    /** True when the unit is operations per time, where bigger is better. */
    public boolean isThroughput() {
        return unit.startsWith("ops/");
    }

    /**
     * The score converted to operations per second.
     *
     * @throws IllegalStateException when the unit is not a throughput unit
     */
    public double opsPerSecond() {
        return score * perSecond();
    }

    /** The error converted to operations per second; {@code NaN} stays {@code NaN}. */
    public double errorOpsPerSecond() {
        return error * perSecond();
    }

    /** Benchmark short name and parameters, e.g. {@code get{backend=MAPPED}}. */
    public String label() {
        return params.isEmpty() ? shortName() : shortName() + params;
    }

    /** Factor from this row's unit to operations per second. */
    private double perSecond() {
        if (!isThroughput()) {
            throw new IllegalStateException(label() + " is measured in " + unit
                    + ", not in operations per time: run it in JMH's Throughput mode");
        }
        switch (unit.substring(4)) {
            case "ns": return 1e9;
            case "us": return 1e6;
            case "ms": return 1e3;
            case "s": return 1;
            case "min": return 1 / 60.0;
            case "hr": return 1 / 3600.0;
            case "day": return 1 / 86400.0;
            default: throw new IllegalStateException("unknown time unit in " + unit);
        }
    }
}
