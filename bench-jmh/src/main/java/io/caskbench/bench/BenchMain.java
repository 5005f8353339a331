package io.caskbench.bench;

import io.caskbench.report.Machine;
import io.caskbench.report.Reports;
import io.caskbench.report.RunFolders;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.SortedSet;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Entry point of {@code mvn -pl bench-jmh exec:exec} and of {@code java -jar benchmarks.jar}.
 *
 * <p>Given JMH arguments that ask for help, a listing or a benchmark regex ({@code -h}, {@code -l},
 * {@code -lp}, {@code -lprof}, {@code FileCopy}...), it is JMH's own main, over every benchmark in the
 * jar. Otherwise it runs the suites named by {@code -Dcaskbench.suites} (default {@code store}) with
 * {@code -Dcaskbench.profile} ({@code quick}, {@code full} or {@code smoke}), filtered by
 * {@code -Dcaskbench.include=<regex>}, with {@code -Dcaskbench.jmhArgs="..."} and any other command-line
 * arguments overriding the suites' JMH settings.
 *
 * <p>A suite run writes into a new folder of its own under the results root ({@code -Dcaskbench.results},
 * default {@code results} under the current directory), and points {@code <root>/latest} at it: first
 * {@code machine.json}; for each suite {@code <suite>.json} in JMH's JSON format and, where the suite has
 * one, {@code <suite>-comparison.txt}; at the end bench-report renders {@code <suite>-summary.txt} for
 * every results file and {@code index.html}.
 */
public final class BenchMain {

    private BenchMain() {
    }

    /** Runs JMH's own main or the requested suites, and exits non-zero when something failed. */
    public static void main(String[] args) throws IOException {
        int status;
        try {
            List<String> jmhArgs = RunSettings.jmhArgs(System.getProperties(), args);
            if (RunSettings.isPlainJmh(jmhArgs)) {
                // JMH's main prints, lists and exits on errors itself, exactly as a plain JMH jar does.
                org.openjdk.jmh.Main.main(jmhArgs.toArray(new String[0]));
                return;
            }
            RunSettings settings = RunSettings.from(System.getProperties(), args);
            Path run = RunFolders.create(settings.results(), String.join("+", settings.suites()));
            System.out.printf("results: %s (%s points at it)%n", run, settings.results().resolve(RunFolders.LATEST));
            status = run(new RunSettings(settings.suites(), settings.profile(), settings.include(), settings.jmhArgs(), run),
                    System.out);
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
     * Runs the suites of {@code settings}, writing results and summaries straight into
     * {@code settings.results()} (the caller chooses the folder; {@link #main} makes a new one per run).
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
        // A regex among the arguments makes main() hand over to JMH; a caller of run() gets it as a filter.
        List<String> filters = new ArrayList<>(cli.getIncludes());
        if (!settings.include().isEmpty()) {
            filters.add(settings.include());
        }
        Machine.write(settings.results());
        List<String> forkArgs = ForkArgs.inherited(ManagementFactory.getRuntimeMXBean().getInputArguments(),
                settings.results());
        Progress progress = new Progress();
        int status = 0;
        for (Suite suite : chosen) {
            out.printf("%n=== caskbench suite '%s' (profile %s): %s%n", suite.name(),
                    settings.profile().name().toLowerCase(Locale.ROOT), suite.description());
            List<RunResult> results = new ArrayList<>();
            suite.beforeRuns(settings.results());
            List<Options> runs = new ArrayList<>();
            List<RunEstimate> estimates = new ArrayList<>();
            for (var builder : suite.runs(settings.profile())) {
                Options base = builder.build();
                Options layered = new LayeredOptions(cli, base, Includes.intersect(base.getIncludes(), filters));
                SortedSet<BenchmarkListEntry> matched = matching(layered);
                runs.add(ForkArgs.replaceable(matched)
                        ? new LayeredOptions(cli, base, layered.getIncludes(), forkArgs) : layered);
                estimates.add(RunEstimate.of(layered, matched));
            }
            try {
                for (int i = 0; i < runs.size(); i++) {
                    out.println(progress.line(suite.name(), estimates, i));
                    if (estimates.get(i).trials() == 0) {
                        continue;
                    }
                    long start = System.nanoTime();
                    try {
                        results.addAll(new Runner(runs.get(i)).run());
                    } catch (NoBenchmarksException e) {
                        out.println("(no benchmark of this run matches the include filter; skipped)");
                    }
                    progress.finished(estimates.get(i), Duration.ofNanos(System.nanoTime() - start));
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

    /** The benchmarks JMH will run for {@code options}, found the way JMH's runner finds them. */
    private static SortedSet<BenchmarkListEntry> matching(Options options) {
        return BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT),
                options.getIncludes(), options.getExcludes());
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
