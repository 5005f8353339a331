package io.caskbench.report.page;

import io.caskbench.report.input.CacheState;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.Units;
import io.caskbench.report.rule.ReferenceRule;
import io.caskbench.report.rule.SuiteResults;
import io.caskbench.report.text.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/** The plain-text summary table written beside each result file ({@code <name>-summary.txt}). */
public final class Summaries {

    /**
     * First line of the report's part of a summary file. A runner may write its own summary into the
     * same file first (bench-jmh's BenchMain does); the report keeps everything above this line and
     * rewrites everything from it on, so rendering twice does not repeat the table.
     */
    public static final String MARKER = "# ---- bench-report: scores and reference ratios (rewritten by every render) ----";

    private Summaries() {
    }

    /** Merges the report's table into a summary file's current text, keeping a runner's own part above it. */
    static String merge(String existing, String table) {
        int at = existing.indexOf(MARKER);
        String head = (at >= 0 ? existing.substring(0, at) : existing).stripTrailing();
        return head.isEmpty() ? table : head + "\n\n" + table;
    }

    /**
     * Renders one file's rows as an aligned text table: benchmark, params, mode, score, error, unit and
     * the ratio to the suite's reference (looked up in the whole suite), headed by the machine.
     */
    public static String render(ResultFile file, SuiteResults suite, String machineLine, CacheState cache) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Benchmark", "Params", "Mode", "Score", "Error", "Unit", "Ratio", "vs reference"});
        for (JmhResult r : file.results()) {
            OptionalDouble ratio = suite.ratio(r);
            String params = r.paramsLabel() + cache.note(r).map(n -> " [" + n + "]").orElse("")
                    + suite.rule().caveat(r).map(c -> " [" + c.toUpperCase(Locale.ROOT) + "]").orElse("");
            rows.add(new String[] {
                r.shortName(), params, r.mode(),
                Units.format(r.primaryMetric().score()),
                r.primaryMetric().hasError() ? "± " + Units.format(r.primaryMetric().scoreError()) : "",
                r.primaryMetric().scoreUnit(),
                ratio.isPresent() ? String.format(Locale.ROOT, "%.3f", ratio.getAsDouble()) : "",
                ratio.isPresent() ? (suite.rule().isReference(r) ? "reference"
                        : ReferenceRule.reading(ratio.getAsDouble(), r.higherIsBetter())) : ""
            });
        }
        StringBuilder sb = new StringBuilder(MARKER).append('\n');
        sb.append("# ").append(file.name()).append(": ").append(file.results().size()).append(" results\n");
        sb.append("# machine: ").append(machineLine).append('\n');
        sb.append("# ").append(suite.rule().description()).append('\n');
        sb.append("# error = half-width of JMH's 99.9% confidence interval\n\n");
        sb.append(TextTable.format(rows, 3, 4, 6));
        return sb.toString();
    }
}
