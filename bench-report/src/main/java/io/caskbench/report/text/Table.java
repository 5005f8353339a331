package io.caskbench.report.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A table of a comparison, rendered as aligned plain text (the {@code -comparison.txt} files) or as a
 * Markdown table (the generated docs), so both come from one place. Columns whose cells are all numbers
 * are right-aligned. Also formats scores, errors and ratios the same way everywhere.
 */
public final class Table {

    private static final Pattern NUMBER = Pattern.compile("(± )?-?[0-9][0-9,.]*(e[-+]?[0-9]+)?( \\(.*\\))?|n/a|-");

    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    /** A table with these column headers. */
    public Table(String... headers) {
        this.headers = headers.clone();
    }

    /** Adds a row; missing cells are blank. */
    public Table row(String... cells) {
        String[] row = new String[headers.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = i < cells.length && cells[i] != null ? cells[i] : "";
        }
        rows.add(row);
        return this;
    }

    /** Adds a row from a list of cells. */
    public Table row(List<String> cells) {
        return row(cells.toArray(new String[0]));
    }

    /** True when no rows were added. */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    private boolean numeric(int column) {
        boolean any = false;
        for (String[] row : rows) {
            if (!row[column].isEmpty()) {
                if (!NUMBER.matcher(row[column]).matches()) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** Aligned plain text with a rule under the header. */
    public String text() {
        List<String[]> all = new ArrayList<>();
        all.add(headers);
        all.addAll(rows);
        int[] right = IntStream.range(0, headers.length).filter(this::numeric).toArray();
        return TextTable.format(all, right);
    }

    /** A Markdown (GitHub) table; pipes in cells are escaped. */
    public String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(mdLine(headers));
        String[] rule = new String[headers.length];
        for (int i = 0; i < rule.length; i++) {
            rule[i] = numeric(i) ? "---:" : "---";
        }
        out.append(mdLine(rule).replace("\\|", "|"));
        rows.forEach(r -> out.append(mdLine(r)));
        return out.toString();
    }

    private static String mdLine(String[] cells) {
        return "| " + String.join(" | ", Arrays.stream(cells).map(c -> c.replace("|", "\\|")).toList()) + " |\n";
    }

    /** A score with thousands separators and no decimals from 100 on, three significant digits below. */
    public static String score(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.3g", value);
    }

    /** An error as {@code ± n}, or blank when JMH had too few samples to give one. */
    public static String error(double value) {
        return Double.isNaN(value) ? "" : "± " + score(value);
    }

    /** A ratio to two decimals, or blank when either side is missing. */
    public static String ratio(double numerator, double denominator) {
        if (Double.isNaN(numerator) || Double.isNaN(denominator) || denominator <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.2f", numerator / denominator);
    }
}
