package io.caskbench.bench;

import io.caskbench.report.Machine;
import io.caskbench.report.Reports;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;

/**
 * Entry point of {@code mvn -pl bench-jmh exec:exec} and of {@code java -jar benchmarks.jar}: runs the
 * suites named by {@code -Dcaskbench.suites} (default {@code store}) with {@code -Dcaskbench.profile}
 * ({@code quick}, {@code full} or {@code smoke}), filtered by {@code -Dcaskbench.include=<regex>}, with
 * {@code -Dcaskbench.jmhArgs="..."} (and any command-line arguments) overriding the suites' JMH settings.
 *
 * <p>It writes {@code <results>/machine.json} first; for each suite {@code <results>/<suite>.json} in
 * JMH's JSON format and, where the suite has one, {@code <results>/<suite>-comparison.txt}; at the end
 * bench-report renders {@code <suite>-summary.txt} for every results file and {@code index.html}. The
 * results directory is {@code -Dcaskbench.results} (default {@code results} under the current
 * directory).
 */
public final class BenchMain {

    private BenchMain() {
    }

    /** Runs the requested suites and exits non-zero when a suite failed. */
    public static void main(String[] args) {
        int status;
        try {
            status = run(RunSettings.from(System.getProperties(), args), System.out);
        } catch (IllegalArgumentException | CommandLineOptionException e) {
            System.err.println("caskbench: " + e.getMessage());
            status = 2;
        }
        System.exit(status);
    }

    /** Every suite on the class path, by name. */
    public static Map<String, Suite> suites() {
        Map<String, Suite> byName = new LinkedHashMap<>();
        for (Suite suite : ServiceLoader.load(Suite.class)) {
            byName.put(suite.name(), suite);
        }
        return byName;
    }

    /**
     * Runs the suites of {@code settings}, writing results and summaries.
     *
     * @return 0 when every suite ran, 1 when one failed or produced no results
     */
    public static int run(RunSettings settings, PrintStream out) throws CommandLineOptionException {
        Map<String, Suite> available = suites();
        List<Suite> chosen = new ArrayList<>();
        for (String name : settings.suites()) {
            Suite suite = available.get(name);
            if (suite == null) {
                throw new IllegalArgumentException("unknown suite '" + name + "'; available: " + available.keySet());
            }
            chosen.add(suite);
        }
        if (settings.profile() == Suite.Profile.SMOKE && System.getProperty("jmh.ignoreLock") == null) {
            // A smoke run measures nothing, so it need not wait for other JMH runs on the machine.
            System.setProperty("jmh.ignoreLock", "true");
        }
        CommandLineOptions cli = new CommandLineOptions(settings.jmhArgs().toArray(new String[0]));
        List<String> filters = new ArrayList<>(cli.getIncludes());
        if (!settings.include().isEmpty()) {
            filters.add(settings.include());
        }
        Machine.write(settings.results());
        int status = 0;
        for (Suite suite : chosen) {
            out.printf("%n=== caskbench suite '%s' (profile %s): %s%n", suite.name(),
                    settings.profile().name().toLowerCase(Locale.ROOT), suite.description());
            List<RunResult> results = new ArrayList<>();
            suite.beforeRuns(settings.results());
            try {
                for (var run : suite.runs(settings.profile())) {
                    Options base = run.build();
                    Options options = new LayeredOptions(cli, base, Includes.intersect(base.getIncludes(), filters));
                    try {
                        results.addAll(new Runner(options).run());
                    } catch (NoBenchmarksException e) {
                        out.println("(no benchmark of this run matches the include filter; skipped)");
                    }
                }
            } catch (RunnerException e) {
                e.printStackTrace(out);
                status = 1;
            }
            if (results.isEmpty()) {
                out.printf("suite '%s' produced no results; nothing written%n", suite.name());
                status = 1;
                continue;
            }
            try {
                write(suite, settings, results, out);
            } catch (IOException e) {
                e.printStackTrace(out);
                status = 1;
            }
        }
        try {
            out.printf("report : %s%n", Reports.renderAll(settings.results()));
        } catch (RuntimeException e) {
            // The results are written; a failed page must not hide them.
            out.println("bench-report could not render " + settings.results() + ": " + e);
            status = 1;
        }
        return status;
    }

    private static void write(Suite suite, RunSettings settings, Collection<RunResult> results, PrintStream out)
            throws IOException {
        Path dir = settings.results();
        Files.createDirectories(dir);
        Path json = dir.resolve(suite.name() + ".json");
        try (PrintStream ps = new PrintStream(Files.newOutputStream(json), false, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
        }
        out.printf("written: %s%n", json);
        Optional<String> comparison = suite.comparison(ResultRow.of(results), dir);
        if (comparison.isPresent()) {
            String text = "caskbench suite '" + suite.name() + "', profile "
                    + settings.profile().name().toLowerCase(Locale.ROOT) + "\n"
                    + "machine : " + Machine.read(dir).orElseGet(Machine::capture).oneLine() + "\n"
                    + "results : " + json + "\n\n" + comparison.get();
            Path file = dir.resolve(suite.name() + "-comparison.txt");
            Files.writeString(file, text, StandardCharsets.UTF_8);
            out.printf("%n%s%nwritten: %s%n", text, file);
        }
    }
}
