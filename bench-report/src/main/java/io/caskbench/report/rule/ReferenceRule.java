package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Units;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * How one suite names the thing being compared (the <em>variant</em>: a backend, a reader, C or Java),
 * how its rows are drawn, and which variant every other one is measured against (the
 * <em>reference</em>).
 *
 * <p>Rows with the same {@link #workload} are compared with the reference row of that workload:
 * {@code ratio = score / reference score}, after converting the reference to the row's unit.
 * Implementations: {@link ParamRule} for suites whose variant is a parameter or the method, and
 * {@link ShmRule} for bench-shm, whose C anchors are named differently from the Java benchmarks.
 */
public interface ReferenceRule {

    /** The results-file name this rule is for ({@code store}, {@code shm-messaging}, ...). */
    String suite();

    /** One sentence for the report saying what the reference is. */
    String description();

    /** The chart a row belongs to, usually its benchmark class. */
    String group(JmhResult r);

    /** The bar series a row belongs to: what is being compared (backend, reader, Java method, C). */
    String variant(JmhResult r);

    /** The text before the parameters in a bar group's label (the method when it is not the variant). */
    String categoryPrefix(JmhResult r);

    /** The parameters that label a row's bar group: all but those that name the variant. */
    Map<String, String> categoryParams(JmhResult r);

    /** What a row measures apart from its variant; rows with equal workloads share a reference. */
    String workload(JmhResult r);

    /** Whether this row is a reference row. */
    boolean isReference(JmhResult r);

    /**
     * A warning every rendering must show with the row, if any: a {@link CrossCheck} row (JMH's own
     * {@code @Threads(1000)} figure beside the gang's) is not a result.
     */
    default Optional<String> caveat(JmhResult r) {
        return CrossCheck.is(r) ? Optional.of(CrossCheck.LABEL) : Optional.empty();
    }

    /** Where a row's bar goes within its group: the reference first, then the others in order of appearance. */
    default int variantOrder(JmhResult r) {
        return isReference(r) ? 0 : 1;
    }

    /** Where a row's bar group goes in its chart; equal orders keep the order of first appearance. */
    default int categoryOrder(JmhResult r) {
        return 0;
    }

    /** The bar group a row belongs to inside its chart: prefix and category parameters. */
    default String category(JmhResult r) {
        StringBuilder sb = new StringBuilder(categoryPrefix(r));
        categoryParams(r).forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.length() == 0 ? "-" : sb.toString();
    }

    /** The reference row for {@code r} among {@code pool}, if the pool has one with the same workload. */
    default Optional<JmhResult> referenceFor(JmhResult r, List<JmhResult> pool) {
        String w = workload(r);
        return pool.stream().filter(this::isReference).filter(c -> workload(c).equals(w)).findFirst();
    }

    /**
     * {@code score / reference score}, with the reference converted to the row's unit; empty when there
     * is no reference or the units do not convert.
     */
    default OptionalDouble ratio(JmhResult r, List<JmhResult> pool) {
        Optional<JmhResult> ref = referenceFor(r, pool);
        if (ref.isEmpty()) {
            return OptionalDouble.empty();
        }
        OptionalDouble refScore = Units.convert(ref.get().primaryMetric().score(),
                ref.get().primaryMetric().scoreUnit(), r.primaryMetric().scoreUnit());
        if (refScore.isEmpty() || refScore.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(r.primaryMetric().score() / refScore.getAsDouble());
    }

    /**
     * The ratio in words, direction included: "2.10x faster", "3.00x slower", "same".
     * For throughput a ratio above 1 is faster; for time per operation it is slower.
     */
    static String reading(double ratio, boolean higherIsBetter) {
        if (Double.isNaN(ratio)) {
            return "";
        }
        if (Math.abs(ratio - 1) < 0.005) {
            return "same";
        }
        boolean better = higherIsBetter ? ratio > 1 : ratio < 1;
        double factor = ratio >= 1 ? ratio : 1 / ratio;
        return String.format(Locale.ROOT, "%.2fx %s", factor, better ? "faster" : "slower");
    }

    /** A benchmark class as people name it: no package, no trailing "Benchmark" or "Bench". */
    static String simpleClassName(JmhResult r) {
        String cls = r.className();
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        for (String suffix : List.of("Benchmark", "Bench")) {
            if (simple.endsWith(suffix) && simple.length() > suffix.length()) {
                return simple.substring(0, simple.length() - suffix.length());
            }
        }
        return simple.isEmpty() ? "results" : simple;
    }
}
