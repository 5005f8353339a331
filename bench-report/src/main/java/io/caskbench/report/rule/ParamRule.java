package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A reference rule for suites whose variant is a parameter ({@code backend}, {@code store}) or the
 * benchmark method (one method per reader). A row's workload is its benchmark class (without package
 * and suffix, see {@link ReferenceRule#simpleClassName}), the method unless the method is the variant,
 * and the parameters other than the variant parameters.
 *
 * @param suite the results-file name this rule is for
 * @param description one sentence for the report saying what the reference is
 * @param variantParams parameter names whose values name the variant
 * @param methodIsVariant whether the method name is (part of) the variant instead of the workload
 * @param reference matches the variant label ({@link #variant}) of a reference row; null: no reference
 */
public record ParamRule(
        String suite,
        String description,
        List<String> variantParams,
        boolean methodIsVariant,
        Pattern reference) implements ReferenceRule {

    /** A rule without reference, for results files no rule knows: they render with scores only. */
    public static ParamRule scoresOnly(String suite) {
        return new ParamRule(suite, "no reference rule for this suite: scores only", List.of(), true, null);
    }

    /** The benchmark class, with its caveat when it has one, so every chart of it carries the warning. */
    @Override
    public String group(JmhResult r) {
        String group = ReferenceRule.simpleClassName(r);
        return caveat(r).map(c -> group + " (" + c + ")").orElse(group);
    }

    @Override
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

    @Override
    public String categoryPrefix(JmhResult r) {
        return methodIsVariant ? "" : r.methodName();
    }

    @Override
    public Map<String, String> categoryParams(JmhResult r) {
        return r.paramsWithout(variantParams);
    }

    @Override
    public String workload(JmhResult r) {
        return group(r) + "|" + category(r);
    }

    @Override
    public boolean isReference(JmhResult r) {
        return reference != null && reference.matcher(variant(r)).find();
    }
}
