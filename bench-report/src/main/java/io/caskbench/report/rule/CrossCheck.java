package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;

/**
 * Benchmarks that only cross-check how another one measures, such as the store suite's
 * {@code JmhThreadsCrossCheck} (JMH's own {@code @Threads(1000)} beside the suite's 1000-thread gang).
 * Their figures are not results: the page shows them in the tables, marked, and leaves them out of the
 * charts and the reference ratios. A benchmark class is one when its name ends in {@code CrossCheck}.
 */
public final class CrossCheck {

    /** What the page says beside such a row. */
    public static final String LABEL = "cross-check, not a result";

    private CrossCheck() {
    }

    /** Whether {@code r} comes from a cross-check benchmark class. */
    public static boolean is(JmhResult r) {
        return r.className().endsWith("CrossCheck");
    }
}
