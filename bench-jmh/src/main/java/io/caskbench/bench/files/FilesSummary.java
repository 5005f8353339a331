package io.caskbench.bench.files;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.SummaryTable;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The plain-text comparison of a files-suite run ({@code <results>/files-comparison.txt}): for every
 * read setting, the mapped reader against the others, which is the question the suite exists to
 * answer; and every cold row against its warm twin, with whether the eviction was verified.
 */
final class FilesSummary {

    /** Benchmark classes whose methods are alternative readers of the same data. */
    private static final List<String> READER_CLASSES = List.of("SmallFileSetRead", "LargeFileSetRead", "RandomChunkRead");
    private static final String MAPPED = "mapped";

    private FilesSummary() {
    }

    /** The comparison text of one run. */
    static String render(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder();
        out.append("Scores are time per operation (lower is better); error = half-width of JMH's 99.9% interval.\n")
                .append("x mapped = this reader's time / the mapped reader's time: above 1, mmap wins.\n")
                .append("On a machine shared with other work the figures are noisy: compare within one run.\n");
        readers(out, rows);
        coldAgainstWarm(out, rows);
        return out.toString();
    }

    private static void readers(StringBuilder out, List<ResultRow> rows) {
        Map<String, List<ResultRow>> groups = rows.stream()
                .filter(r -> READER_CLASSES.contains(r.className()))
                .collect(Collectors.groupingBy(r -> r.className() + " " + r.paramsWithout(), TreeMap::new,
                        Collectors.toList()));
        for (Map.Entry<String, List<ResultRow>> group : groups.entrySet()) {
            List<ResultRow> g = group.getValue();
            Optional<ResultRow> mapped = g.stream().filter(r -> r.method().equals(MAPPED)).findFirst();
            if (mapped.isEmpty()) {
                continue;
            }
            out.append('\n').append(group.getKey()).append('\n');
            SummaryTable table = new SummaryTable("reader", "time/op", "error", "unit", "x mapped");
            g.stream().sorted(Comparator.comparingDouble(ResultRow::score)).forEach(r -> table.row(r.method(),
                    SummaryTable.score(r.score()), SummaryTable.error(r.error()), r.unit(),
                    SummaryTable.ratio(r.score(), mapped.get().score())));
            out.append(table.render());
            g.stream().filter(r -> !r.method().equals(MAPPED)).min(Comparator.comparingDouble(ResultRow::score))
                    .ifPresent(best -> out.append(verdict(mapped.get(), best)).append('\n'));
            if (g.stream().anyMatch(r -> "cold".equals(r.param("cache")) && !verifiedCold(r))) {
                out.append("!! some rows of this setting were not verifiably cold: they are not cold figures\n");
            }
        }
    }

    private static String verdict(ResultRow mapped, ResultRow best) {
        double factor = best.score() / mapped.score();
        return factor >= 1
                ? String.format(Locale.ROOT, "-> mmap wins: %.1fx faster than the best other reader (%s)", factor,
                        best.method())
                : String.format(Locale.ROOT, "-> mmap loses: %.1fx slower than the best other reader (%s)",
                        1 / factor, best.method());
    }

    private static void coldAgainstWarm(StringBuilder out, List<ResultRow> rows) {
        SummaryTable table = new SummaryTable("benchmark", "params", "cold", "warm", "unit", "cold/warm", "eviction");
        for (ResultRow cold : rows) {
            if (!"cold".equals(cold.param("cache"))) {
                continue;
            }
            double warm = rows.stream()
                    .filter(r -> r.name().equals(cold.name()) && "warm".equals(r.param("cache"))
                            && r.paramsWithout("cache").equals(cold.paramsWithout("cache")))
                    .mapToDouble(ResultRow::score).findFirst().orElse(Double.NaN);
            table.row(cold.name(), cold.paramsWithout("cache"), SummaryTable.score(cold.score()),
                    SummaryTable.score(warm), cold.unit(), SummaryTable.ratio(cold.score(), warm), eviction(cold));
        }
        if (!table.isEmpty()) {
            out.append("\nCold rows against their warm twins. A row is cold only if every measured invocation\n")
                    .append("started after a verified eviction (secondary metrics coldDropCaches, coldFadvise,\n")
                    .append("coldUnverified); a cold/warm ratio near 1 also means the cache was not really cold.\n");
            out.append(table.render());
        }
    }

    private static boolean verifiedCold(ResultRow cold) {
        double verified = cold.secondary().getOrDefault("coldDropCaches", 0.0)
                + cold.secondary().getOrDefault("coldFadvise", 0.0);
        return verified > 0 && cold.secondary().getOrDefault("coldUnverified", 0.0) == 0;
    }

    private static String eviction(ResultRow cold) {
        if (!verifiedCold(cold)) {
            return "NOT cold: eviction not verified";
        }
        return "verified (" + (cold.secondary().getOrDefault("coldDropCaches", 0.0) > 0 ? "drop_caches" : "fadvise")
                + ")";
    }
}
