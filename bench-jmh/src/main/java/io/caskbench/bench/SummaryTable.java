package io.caskbench.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A fixed-width plain-text table; numbers are right-aligned, everything else left-aligned. Also formats
 * scores and ratios the same way in every summary.
 */
public final class SummaryTable {

    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    /** A table with these column headers. */
    public SummaryTable(String... headers) {
        this.headers = headers.clone();
    }

    /** Adds a row; missing cells are blank. */
    public SummaryTable row(String... cells) {
        String[] row = new String[headers.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = i < cells.length && cells[i] != null ? cells[i] : "";
        }
        rows.add(row);
        return this;
    }

    /** True when no rows were added. */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table, one line per row, each line ending in a newline. */
    public String render() {
        int[] width = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            width[i] = headers[i].length();
            for (String[] row : rows) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers, width);
        for (String[] row : rows) {
            line(out, row, width);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                line.append("  ");
            }
            String cell = cells[i];
            String pad = " ".repeat(width[i] - cell.length());
            line.append(isNumeric(cell) ? pad + cell : cell + pad);
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static boolean isNumeric(String cell) {
        return NUMBER.matcher(cell).matches();
    }

    private static final Pattern NUMBER = Pattern.compile("(± )?-?[0-9][0-9,.]*(e[-+]?[0-9]+)?|n/a");

    /** A score with thousands separators and no decimals (ops/s are large numbers). */
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
