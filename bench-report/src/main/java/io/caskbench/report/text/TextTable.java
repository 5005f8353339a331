package io.caskbench.report.text;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Aligned plain-text tables for summaries and the compare command. */
public final class TextTable {

    private TextTable() {
    }

    /**
     * Formats rows (the first one is the header) with columns padded to their widest cell and a rule
     * under the header; the listed columns are right-aligned because they hold numbers.
     */
    public static String format(List<String[]> rows, int... rightAligned) {
        Set<Integer> right = Arrays.stream(rightAligned).boxed().collect(Collectors.toSet());
        int cols = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] width = new int[cols];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c] == null ? 0 : row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            String[] row = rows.get(i);
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                String cell = c < row.length && row[c] != null ? row[c] : "";
                String pad = " ".repeat(width[c] - cell.length());
                line.append(c == 0 ? "" : "  ").append(right.contains(c) ? pad + cell : cell + pad);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
            if (i == 0) {
                sb.append(IntStream.range(0, cols).mapToObj(c -> "-".repeat(width[c]))
                        .collect(Collectors.joining("  "))).append('\n');
            }
        }
        return sb.toString();
    }
}
