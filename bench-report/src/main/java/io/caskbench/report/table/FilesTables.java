package io.caskbench.report.table;

import io.caskbench.report.input.CacheState;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import io.caskbench.report.text.Table;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The files suite's comparison, from the run's JSON ({@code files-comparison.txt} and the generated part
 * of docs/files.md): for every read setting, the mapped reader against the others, which is the question
 * the suite exists to answer, each ratio with its 95% bootstrap interval; every cold row against its warm
 * twin, with whether its eviction was verified; and every file-system operation as measured, with the
 * spread of its fork means.
 */
public final class FilesTables {

    /** Benchmark classes whose methods are alternative readers of the same data. */
    private static final List<String> READER_CLASSES = List.of("SmallFileSetRead", "LargeFileSetRead", "RandomChunkRead");
    private static final String MAPPED = "mapped";

    /** A row whose fork means lie further apart than this share of its score says nothing readable. */
    static final double NOISY = 0.5;

    /** What a row too noisy to read prints beside its spread. */
    static final String TOO_NOISY = "too noisy to read";

    private FilesTables() {
    }

    /** The comparison of one run. */
    public static Document render(List<JmhResult> rows) {
        Document doc = new Document();
        doc.line("Scores are time per operation (lower is better); error = half-width of JMH's 99.9% interval;")
                .line("forks = separate JVM runs. x mapped = this reader's time / the mapped reader's time (above 1,")
                .line("mmap is faster), followed by its 95% interval from a bootstrap over forks (iterations nested in")
                .line("forks). mmap wins or loses only when the whole interval is on one side of 1; with fewer than")
                .line(Spread.PUBLISHED_FORKS + " forks a verdict is indicative.");
        readers(doc, rows);
        coldAgainstWarm(doc, rows);
        operations(doc, rows);
        return doc;
    }

    /** Every file-system operation row as measured: no reference, one table per benchmark class. */
    private static void operations(Document doc, List<JmhResult> rows) {
        Map<String, List<JmhResult>> byClass = rows.stream().filter(r -> !READER_CLASSES.contains(cls(r)))
                .collect(Collectors.groupingBy(FilesTables::cls, TreeMap::new, Collectors.toList()));
        byClass.forEach((name, group) -> {
            doc.heading(name);
            Table table = new Table("method", "params", "score", "error", "unit", "forks", "spread of fork means");
            for (JmhResult r : group) {
                double range = Spread.relativeRange(r);
                table.row(r.methodName(), StoreRows.paramsWithout(r), Table.score(r.primaryMetric().score()),
                        Table.error(r.primaryMetric().scoreError()), r.primaryMetric().scoreUnit(),
                        r.forksCell(),
                        Double.isNaN(range) ? "" : String.format(Locale.ROOT, "%.0f%%", 100 * range) + noisy(r));
            }
            doc.table(table);
            if (name.equals("SequentialWrite")) {
                forceVerdicts(doc, group);
            }
        });
    }

    /** {@code " too noisy to read"} when {@code r}'s fork spread exceeds {@link #NOISY}, else blank. */
    private static String noisy(JmhResult r) {
        return Spread.relativeRange(r) > NOISY ? " " + TOO_NOISY : "";
    }

    /** One line per write setting: forcing every chunk against forcing once at the end. */
    private static void forceVerdicts(Document doc, List<JmhResult> group) {
        for (JmhResult each : group) {
            if (!"each".equals(each.params().get("force"))) {
                continue;
            }
            group.stream().filter(r -> "end".equals(r.params().get("force")) && r.methodName().equals(each.methodName())
                            && StoreRows.paramsWithout(r, "force").equals(StoreRows.paramsWithout(each, "force")))
                    .findFirst().ifPresent(end -> doc.line(forceVerdict(each, end)));
        }
    }

    /**
     * Force each chunk against force at the end for one setting, from time per operation: a side wins
     * only when the whole spread is on its side, and a row too noisy to read decides nothing.
     */
    static String forceVerdict(JmhResult each, JmhResult end) {
        Spread s = Spread.of(each, end);
        String setting = StoreRows.paramsWithout(each, "force");
        String ratio = "force each chunk / force at the end " + s.cell();
        if (!noisy(each).isEmpty() || !noisy(end).isEmpty()) {
            return "-> " + setting + ": " + TOO_NOISY + " (a fork spread above " + Math.round(100 * NOISY) + "%), "
                    + ratio;
        }
        return switch (s.verdict(false)) {
            case WIN -> "-> " + setting + ": forcing each chunk is faster, " + ratio;
            case LOSS -> "-> " + setting + ": forcing once at the end is faster, " + ratio;
            default -> "-> " + setting + ": no winner, the ratio's range holds 1, " + ratio;
        };
    }

    private static String cls(JmhResult r) {
        return StoreRows.cls(r);
    }

    private static void readers(Document doc, List<JmhResult> rows) {
        Map<String, List<JmhResult>> groups = rows.stream().filter(r -> READER_CLASSES.contains(cls(r)))
                .collect(Collectors.groupingBy(r -> cls(r) + " " + StoreRows.paramsWithout(r), TreeMap::new,
                        Collectors.toList()));
        for (Map.Entry<String, List<JmhResult>> group : groups.entrySet()) {
            List<JmhResult> g = group.getValue();
            Optional<JmhResult> mapped = g.stream().filter(r -> r.methodName().equals(MAPPED)).findFirst();
            if (mapped.isEmpty()) {
                continue;
            }
            doc.heading(group.getKey());
            Table table = new Table("reader", "time/op", "error", "unit", "forks", "x mapped (95% interval)");
            g.stream().sorted(Comparator.comparingDouble(r -> r.primaryMetric().score())).forEach(r -> table.row(
                    r.methodName(), Table.score(r.primaryMetric().score()), Table.error(r.primaryMetric().scoreError()),
                    r.primaryMetric().scoreUnit(), r.forksCell(), Spread.of(r, mapped.get()).cell() + noisy(r)));
            doc.table(table);
            g.stream().filter(r -> !r.methodName().equals(MAPPED))
                    .min(Comparator.comparingDouble(r -> r.primaryMetric().score()))
                    .ifPresent(best -> doc.line(verdict(mapped.get(), best)));
            if (g.stream().anyMatch(r -> CacheState.isColdRequested(r) && !verifiedCold(r))) {
                doc.warning("some rows of this setting were not verifiably cold: they are not cold figures");
            }
        }
    }

    /** The mapped reader against the fastest other one, called a win or a loss only outside the interval. */
    static String verdict(JmhResult mapped, JmhResult best) {
        Spread s = Spread.of(best, mapped);
        double factor = s.value() >= 1 ? s.value() : 1 / s.value();
        String how = String.format(Locale.ROOT, "%.1fx %s than the best other reader (%s), interval %s", factor,
                s.value() >= 1 ? "faster" : "slower", best.methodName(), s.cell());
        return switch (s.verdict(true)) {
            case WIN -> "-> mmap wins: " + how;
            case LOSS -> "-> mmap loses: " + how;
            case UNDETERMINED -> "-> undetermined, the interval holds 1: mmap " + how;
        } + s.indicativeNote();
    }

    private static void coldAgainstWarm(Document doc, List<JmhResult> rows) {
        Table table = new Table("benchmark", "params", "cold", "warm", "unit", "cold/warm (95% interval)", "eviction");
        for (JmhResult cold : rows) {
            if (!"cold".equals(cold.params().get("cache"))) {
                continue;
            }
            Optional<JmhResult> warm = rows.stream()
                    .filter(r -> r.benchmark().equals(cold.benchmark()) && "warm".equals(r.params().get("cache"))
                            && StoreRows.paramsWithout(r, "cache").equals(StoreRows.paramsWithout(cold, "cache")))
                    .findFirst();
            table.row(cold.shortName(), StoreRows.paramsWithout(cold, "cache"), Table.score(cold.primaryMetric().score()),
                    warm.map(w -> Table.score(w.primaryMetric().score())).orElse("-"), cold.primaryMetric().scoreUnit(),
                    Spread.of(cold, warm.orElse(null)).cell(), eviction(cold));
        }
        if (!table.isEmpty()) {
            doc.heading("Cold rows against their warm twins");
            doc.line("A row is cold only if every measured invocation started after a verified eviction (secondary")
                    .line("metrics coldDropCaches, coldFadvise, coldUnverified); a cold/warm ratio near 1 also means the")
                    .line("cache was not really cold.");
            doc.table(table);
        }
    }

    private static boolean verifiedCold(JmhResult cold) {
        double verified = count(cold, "coldDropCaches") + count(cold, "coldFadvise");
        return verified > 0 && count(cold, "coldUnverified") == 0;
    }

    private static double count(JmhResult r, String metric) {
        double v = StoreRows.secondary(r, metric);
        return Double.isNaN(v) ? 0 : v;
    }

    private static String eviction(JmhResult cold) {
        if (!verifiedCold(cold)) {
            return "NOT cold: eviction not verified";
        }
        return "verified (" + (count(cold, "coldDropCaches") > 0 ? "drop_caches" : "fadvise") + ")";
    }
}
