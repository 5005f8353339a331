package io.caskbench.bench.junit;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The scores of one run, with their errors: an immutable list of {@link Score} rows in the order
 * they were measured. {@link #toString()} prints it as an aligned table, the way every failed
 * {@link ThroughputAssertions} assertion shows it.
 */
public final class ScoreTable {

    private final List<Score> rows;

    private ScoreTable(List<Score> rows) {
        this.rows = List.copyOf(rows);
    }

    /** A table of the given rows. */
    public static ScoreTable of(List<Score> rows) {
        return new ScoreTable(rows);
    }

    /** A table of the given rows. */
    public static ScoreTable of(Score... rows) {
        return new ScoreTable(List.of(rows));
    }

    /** The primary scores of a JMH run, one row per benchmark and parameter combination. */
    public static ScoreTable fromJmh(Collection<RunResult> results) {
        List<Score> rows = new ArrayList<>();
        for (RunResult run : results) {
            BenchmarkParams params = run.getParams();
            TreeMap<String, String> values = new TreeMap<>();
            for (String key : params.getParamsKeys()) {
                values.put(key, params.getParam(key));
            }
            Result<?> primary = run.getPrimaryResult();
            rows.add(new Score(params.getBenchmark(), values, primary.getScore(), primary.getScoreError(),
                    primary.getScoreUnit()));
        }
        return new ScoreTable(rows);
    }

    /** The rows, in measurement order. */
    public List<Score> rows() {
        return rows;
    }

    /** The rows that match {@code filter}. */
    public List<Score> rows(Predicate<Score> filter) {
        return rows.stream().filter(filter).toList();
    }

    /** The table as aligned text: benchmark, one column per parameter, score, error and unit. */
    @Override
    public String toString() {
        return render(Set.of());
    }

    /** Renders the table, putting a {@code *} before each row in {@code marked}. */
    String render(Set<Score> marked) {
        if (rows.isEmpty()) {
            return "  (no scores)\n";
        }
        Set<String> paramNames = new TreeSet<>();
        rows.forEach(r -> paramNames.addAll(r.params().keySet()));
        List<String> header = new ArrayList<>(List.of("Benchmark"));
        header.addAll(paramNames);
        header.addAll(List.of("Score", "Error", "Units"));

        List<List<String>> cells = new ArrayList<>();
        cells.add(header);
        for (Score r : rows) {
            List<String> line = new ArrayList<>(List.of(r.benchmark()));
            paramNames.forEach(p -> line.add(r.params().getOrDefault(p, "-")));
            line.add(number(r.score()));
            line.add(Double.isNaN(r.error()) ? "n/a" : "± " + number(r.error()));
            line.add(r.unit());
            cells.add(line);
        }
        int[] widths = new int[header.size()];
        for (List<String> line : cells) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int l = 0; l < cells.size(); l++) {
            List<String> line = cells.get(l);
            out.append(l > 0 && marked.contains(rows.get(l - 1)) ? "* " : "  ");
            for (int i = 0; i < line.size(); i++) {
                // Text columns flush left, numbers flush right, as in JMH's own table.
                boolean numeric = i >= line.size() - 3 && i < line.size() - 1;
                String cell = line.get(i);
                boolean last = i == line.size() - 1;
                String pad = last ? "" : " ".repeat(widths[i] - cell.length());
                out.append(numeric ? pad + cell : cell + pad);
                if (!last) {
                    out.append("  ");
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%,.3f", value);
    }
}
