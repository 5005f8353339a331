package io.caskbench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * How one suite names the thing being compared (the <em>variant</em>: a backend, a reader, C or Java)
 * and which variant every other one is measured against (the <em>reference</em>).
 *
 * <p>A row's <em>workload</em> is everything that is not the variant: the benchmark class (without its
 * package and a trailing {@code Benchmark}, so that C anchors written from another package still line
 * up), the method unless the method is the variant, and the parameters other than the variant
 * parameters. Rows with the same workload are compared with the reference row of that workload:
 * {@code ratio = score / reference score}, after converting to the reference's unit.
 *
 * @param suite the results-file name this rule is for ({@code store}, {@code shm-messaging}, ...)
 * @param description one sentence for the report saying what the reference is
 * @param variantParams parameter names whose values name the variant
 * @param methodIsVariant whether the method name is (part of) the variant instead of the workload
 * @param reference matches the variant label ({@link #variant}) of a reference row
 */
public record ReferenceRule(
        String suite,
        String description,
        List<String> variantParams,
        boolean methodIsVariant,
        Pattern reference) {

    /** The variant of a row, as shown in charts: method and/or variant parameter values. */
    public String variant(JmhResult r) {
        List<String> parts = new ArrayList<>();
        if (methodIsVariant) {
            parts.add(r.methodName());
        }
        for (String p : variantParams) {
            String v = r.params().get(p);
            if (v != null) {
                parts.add(v);
            }
        }
        return parts.isEmpty() ? r.methodName() : String.join(" ", parts);
    }

    /** What a row measures apart from its variant; rows with equal workloads are compared. */
    public String workload(JmhResult r) {
        return group(r) + "|" + category(r);
    }

    /** The chart a row belongs to: its benchmark class without package and "Benchmark" suffix. */
    public String group(JmhResult r) {
        String cls = r.className();
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        if (simple.endsWith("Benchmark") && simple.length() > "Benchmark".length()) {
            simple = simple.substring(0, simple.length() - "Benchmark".length());
        }
        return simple.isEmpty() ? "results" : simple;
    }

    /** The bar group a row belongs to inside its chart: method (unless it is the variant) and other params. */
    public String category(JmhResult r) {
        Map<String, String> rest = new LinkedHashMap<>(r.paramsWithout(variantParams));
        StringBuilder sb = new StringBuilder();
        if (!methodIsVariant) {
            sb.append(r.methodName());
        }
        rest.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.length() == 0 ? "-" : sb.toString();
    }

    /** Whether this row is a reference row. */
    public boolean isReference(JmhResult r) {
        return reference != null && reference.matcher(variant(r)).find();
    }

    /** The reference row for {@code r} among {@code pool}, if the pool has one with the same workload. */
    public Optional<JmhResult> referenceFor(JmhResult r, List<JmhResult> pool) {
        String w = workload(r);
        return pool.stream().filter(this::isReference).filter(c -> workload(c).equals(w)).findFirst();
    }

    /**
     * {@code score / reference score}, with the reference converted to the row's unit; empty when there
     * is no reference or the units do not convert.
     */
    public OptionalDouble ratio(JmhResult r, List<JmhResult> pool) {
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
     * The ratio in words, direction included: "2.10x faster", "3.00x slower", "reference".
     * For throughput a ratio above 1 is faster; for time per operation it is slower.
     */
    public static String reading(double ratio, boolean higherIsBetter) {
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
}
