package io.caskbench.report.rule;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.ResultFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The result files that share one reference rule (for example shm.json and its C anchors in
 * shm-c.json), so that ratios can look up a reference in any of them.
 *
 * @param rule the suite's reference rule
 * @param files its result files, sorted by name
 */
public record SuiteResults(ReferenceRule rule, List<ResultFile> files) {

    /** Copies the list, the suite's own file ({@code shm.json}) first, so its benchmarks lead charts and tables. */
    public SuiteResults {
        List<ResultFile> ordered = new ArrayList<>(files);
        ordered.sort(java.util.Comparator.comparing((ResultFile f) -> !f.name().equals(rule.suite())));
        files = List.copyOf(ordered);
    }

    /** Groups result files by the rule {@link Suites#ruleFor} gives each, keeping file order. */
    public static List<SuiteResults> group(List<ResultFile> files) {
        Map<String, ReferenceRule> rules = new LinkedHashMap<>();
        Map<String, List<ResultFile>> bySuite = new LinkedHashMap<>();
        for (ResultFile f : files) {
            ReferenceRule rule = Suites.ruleFor(f.name());
            rules.putIfAbsent(rule.suite(), rule);
            bySuite.computeIfAbsent(rule.suite(), k -> new ArrayList<>()).add(f);
        }
        List<SuiteResults> out = new ArrayList<>();
        bySuite.forEach((name, list) -> out.add(new SuiteResults(rules.get(name), list)));
        out.sort(java.util.Comparator.comparingInt((SuiteResults s) -> Suites.order(s.name())).thenComparing(SuiteResults::name));
        return out;
    }

    /** The suite's name, as used in headings and chart file names. */
    public String name() {
        return rule.suite();
    }

    /** Every row of every file of the suite: where references are looked up. */
    public List<JmhResult> pool() {
        return files.stream().flatMap(f -> f.results().stream()).toList();
    }

    /** The ratio of a row to its reference in this suite. */
    public OptionalDouble ratio(JmhResult r) {
        return rule.ratio(r, pool());
    }
}
