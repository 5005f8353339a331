package io.caskbench.report.input;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Map;

/**
 * One metric of a JMH result, as JMH writes it in its JSON ({@code primaryMetric} or an entry of
 * {@code secondaryMetrics}).
 *
 * @param score the mean (or the single value) in {@code scoreUnit}
 * @param scoreError half-width of the 99.9% confidence interval; NaN when JMH could not compute one
 * @param scoreConfidence lower and upper bound of that interval
 * @param scorePercentiles percentile ("0.0" .. "100.0") to value
 * @param scoreUnit JMH's unit string, such as {@code ops/s} or {@code us/op}
 * @param rawData per fork, the per-iteration scores
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Metric(
        double score,
        double scoreError,
        List<Double> scoreConfidence,
        Map<String, Double> scorePercentiles,
        String scoreUnit,
        List<List<Double>> rawData) {

    /** Replaces absent collections with empty ones so callers need no null checks. */
    public Metric {
        scoreConfidence = scoreConfidence == null ? List.of() : scoreConfidence;
        scorePercentiles = scorePercentiles == null ? Map.of() : scorePercentiles;
        scoreUnit = scoreUnit == null ? "" : scoreUnit;
        rawData = rawData == null ? List.of() : rawData;
    }

    /** A metric with only a score, an error and a unit, as the non-JMH measurements write them. */
    public static Metric of(double score, double scoreError, String unit) {
        return new Metric(score, scoreError, List.of(), Map.of(), unit, List.of());
    }

    /** Whether the error is a usable finite number. */
    public boolean hasError() {
        return Double.isFinite(scoreError);
    }
}
