package io.caskbench.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The suites' part of docs/benchmarks.md, generated from the suite definitions so that it cannot drift
 * from what runs: one table with each suite's command, runs, rows, forks and times (the one place the
 * other pages quote), then each suite's quick run list. A test in the build regenerates it and fails on
 * any difference.
 *
 * <p>The rows of BitCask's MEMORY_SEGMENT backend are left out of the counts: JDK 22 and newer add them
 * (the page says so), and the block must read the same on every JDK that builds it.
 */
public final class SuiteDocs {

    /** First line of the block. */
    public static final String BEGIN = "<!-- generated:suite-list begin -->";

    /** Last line of the block. */
    public static final String END = "<!-- generated:suite-list end -->";

    /** The block, begin and end lines included. */
    static final Pattern BLOCK = Pattern.compile(Pattern.quote(BEGIN) + ".*?" + Pattern.quote(END), Pattern.DOTALL);

    /** The command every suite runs with; {@code -Dcaskbench.suites} and the profile follow it. */
    static final String COMMAND = "./mvnw -B -ntp -pl bench-jmh -am package exec:exec -DskipTests";

    /**
     * Measured times of the quick profile on an idle 2-core machine, from a fresh clone with its dependencies
     * downloaded, the build included (2026-11-26); a suite not yet measured says so.
     */
    static final Map<String, String> MEASURED = Map.of("store", "9 min 16 s", "one", "43 s");

    private static final String NOT_MEASURED = "not measured yet";

    private static final String JDK22_ONLY = "MEMORY_SEGMENT";

    private SuiteDocs() {
    }

    /** The block for {@code suites}, in their order. */
    public static String render(Collection<Suite> suites) {
        StringBuilder out = new StringBuilder(BEGIN).append('\n');
        out.append("<!-- From the suite definitions (io.caskbench.bench.Suite and its implementations); SuiteDocsTest"
                + " fails when this block differs from them and rewrites it when run with -Dcaskbench.writeDocs=true."
                + " -->\n\n");
        out.append("| Suite | Add to the command | Quick: runs, rows, forks | Quick: estimate | Quick: measured, build"
                + " included | Full: runs, rows, forks | Full: estimate |\n");
        out.append("|---|---|---|---|---|---|---|\n");
        Map<Suite, List<List<Trial>>> quick = new LinkedHashMap<>();
        for (Suite suite : suites) {
            List<List<Trial>> q = plan(suite, Suite.Profile.QUICK);
            List<List<Trial>> f = plan(suite, Suite.Profile.FULL);
            quick.put(suite, q);
            out.append("| `").append(suite.name()).append('`')
                    .append(suite.name().equals(RunSettings.DEFAULT_SUITES) ? " (default)" : "").append(" | ")
                    .append(suite.name().equals(RunSettings.DEFAULT_SUITES) ? "nothing"
                            : "`-Dcaskbench.suites=" + suite.name() + "`")
                    .append(" | ").append(counts(q)).append(" | ").append(Progress.about(seconds(q)).substring(6))
                    .append(" | ").append(MEASURED.getOrDefault(suite.name(), NOT_MEASURED))
                    .append(" | ").append(counts(f)).append(" | ").append(Progress.about(seconds(f)).substring(6))
                    .append(" |\n");
        }
        out.append("\nAn estimate is the rows' forks times their iterations' configured length, plus "
                + Math.round(RunEstimate.FORK_SECONDS) + " s per fork for the JVM's start and the trial's set-up;"
                + " the first fill of each store takes longer, which the measured times include. Add"
                + " `-Dcaskbench.profile=full` for the full profile. On JDK 22 and newer the rows of BitCask's"
                + " MEMORY_SEGMENT backend are added where a suite runs every backend.\n");
        for (Map.Entry<Suite, List<List<Trial>>> e : quick.entrySet()) {
            out.append("\n#### `").append(e.getKey().name()).append("`: ").append(e.getKey().description()).append("\n\n");
            int n = 0;
            for (List<Trial> run : e.getValue()) {
                out.append(++n).append(". ").append(describe(run)).append('\n');
            }
        }
        return out.append(END).toString();
    }

    /** {@code text} with its block replaced by {@code block}. */
    public static String replace(String text, String block) {
        Matcher m = BLOCK.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + BEGIN + " ... " + END + " block");
        }
        return text.substring(0, m.start()) + block + text.substring(m.end());
    }

    /** The block in {@code text}. */
    public static String block(String text) {
        Matcher m = BLOCK.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + BEGIN + " ... " + END + " block");
        }
        return m.group();
    }

    /** The suite's runs under {@code profile}, each as its rows, without the JDK 22 rows. */
    private static List<List<Trial>> plan(Suite suite, Suite.Profile profile) {
        List<List<Trial>> runs = new ArrayList<>();
        int i = 0;
        for (var builder : suite.runs(profile)) {
            Options options = builder.build();
            SortedSet<BenchmarkListEntry> matched = BenchmarkList.defaultList().find(
                    OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), options.getIncludes(),
                    options.getExcludes());
            runs.add(Trial.split(suite.name(), i++, options, matched).stream()
                    .filter(t -> t.params().values().stream().noneMatch(v -> v.contains(JDK22_ONLY))).toList());
        }
        return runs;
    }

    private static String counts(List<List<Trial>> runs) {
        int rows = runs.stream().mapToInt(List::size).sum();
        Set<Integer> forks = new java.util.TreeSet<>();
        runs.forEach(r -> r.forEach(t -> forks.add(shape(t).forks())));
        return String.format(Locale.ROOT, "%d, %d, %s", runs.size(), rows,
                forks.stream().map(String::valueOf).collect(Collectors.joining(" or ")));
    }

    private static double seconds(List<List<Trial>> runs) {
        return runs.stream().flatMap(List::stream).mapToDouble(Trial::nominalSeconds).sum();
    }

    private static RunEstimate.Shape shape(Trial t) {
        BenchmarkListEntry b = BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), t.options().getIncludes(),
                t.options().getExcludes()).first();
        return RunEstimate.Shape.of(t.options(), b);
    }

    /** One run: its benchmarks, rows, parameter values, forks and iterations. */
    private static String describe(List<Trial> run) {
        if (run.isEmpty()) {
            return "(no benchmark on this JDK)";
        }
        Set<String> benchmarks = new LinkedHashSet<>();
        Map<String, Set<String>> values = new TreeMap<>();
        Set<String> shapes = new LinkedHashSet<>();
        for (Trial t : run) {
            String name = t.benchmark();
            int dot = name.lastIndexOf('.');
            benchmarks.add(name.substring(name.lastIndexOf('.', dot - 1) + 1));
            t.params().forEach((k, v) -> values.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(v));
            shapes.add(words(shape(t)));
        }
        String params = values.entrySet().stream().map(e -> e.getKey() + " " + String.join(", ", e.getValue()))
                .collect(Collectors.joining("; "));
        // A run that sets JMH's thread count says so: runs that differ only in it would read alike.
        org.openjdk.jmh.util.Optional<Integer> n = run.get(0).options().getThreads();
        String threads = n.hasValue() ? ", " + n.get() + " thread" + (n.get() == 1 ? "" : "s") : "";
        return String.format(Locale.ROOT, "`%s`: %d row%s%s%s. %s.", String.join("`, `", benchmarks), run.size(),
                run.size() == 1 ? "" : "s", params.isEmpty() ? "" : " (" + params + ")", threads, String.join("; ", shapes));
    }

    /** {@code 3 forks of 1 x 1 s warm-up and 3 x 1 s measured}; single shots as calls. */
    private static String words(RunEstimate.Shape s) {
        String warm = s.singleShot() ? s.warmups() + " warm-up call" + (s.warmups() == 1 ? "" : "s")
                : s.warmups() + " x " + length(s.warmupSeconds()) + " warm-up";
        String measured = s.singleShot() ? s.measurements() + " measured call" + (s.measurements() == 1 ? "" : "s")
                : s.measurements() + " x " + length(s.measurementSeconds()) + " measured";
        return s.forks() + " fork" + (s.forks() == 1 ? "" : "s") + " of " + warm + " and " + measured;
    }

    private static String length(double seconds) {
        return seconds >= 1 ? String.format(Locale.ROOT, "%.0f s", seconds)
                : String.format(Locale.ROOT, "%.0f ms", seconds * 1000);
    }
}
