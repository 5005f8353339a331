package io.caskbench.report.table;

import java.util.List;

/** The smallest and largest of a row's per-fork values, the ends every spread and verdict reads. */
final class ForkExtremes {

    private ForkExtremes() {
    }

    /** The smallest of {@code values}, or NaN when there is none. */
    static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /** The largest of {@code values}, or NaN when there is none. */
    static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
