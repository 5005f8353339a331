package io.caskbench.bench;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.page.Reports;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.SortedSet;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
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
 * <p>Each row (one benchmark with one set of parameters, a {@link Trial}) is a JMH run of its own, so its
 * result reaches disk as soon as it is done; one progress line ({@link Progress}) estimates the time left
 * in the whole invocation. A suite run writes into a new folder of its own under the results root
 * ({@code -Dcaskbench.results}, default {@code results} under the current directory): first
 * {@code machine.json}; for each suite {@code <suite>.json} in JMH's JSON format, rewritten after every
 * row, and, where the suite has one, {@code <suite>-comparison.txt}; at the end bench-report renders
 * {@code <suite>-summary.txt} for every results file and {@code index.html}. {@code <root>/latest} points
 * at the folder once its first row is written. An interrupt (SIGINT, SIGTERM) keeps every finished row,
 * marks the folder partial and renders the report of what there is ({@link RunFolder}).
 */
public final class BenchMain {

    /** The system property naming the folder of filled stores, read by the store benchmarks' fixtures. */
    public static final String FILL_CACHE = "caskbench.fillCache";

    /** Forks every published headline and goal row comes from; a run with fewer gives indicative verdicts. */
    static final int PUBLISHED_FORKS = 5;

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
            Optional<String> locked = JmhLock.heldElsewhere(JmhLock.file(), Boolean.getBoolean("jmh.ignoreLock")
                    || settings.profile() == Suite.Profile.SMOKE);
            if (locked.isPresent()) {
                System.err.println("caskbench: " + locked.get());
                System.exit(2);
                return;
            }
            Path run = RunFolders.createUnpointed(settings.results(), String.join("+", settings.suites()),
                    Clock.systemDefaultZone());
            System.out.printf("results: %s (%s points at it once a row is written)%n", run,
                    settings.results().resolve(RunFolders.LATEST));
            status = run(new RunSettings(settings.suites(), settings.profile(), settings.include(), settings.jmhArgs(), run),
                    settings.results(), System.out, true);
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
     * {@code settings.results()} (the caller chooses the folder; {@link #main} makes a new one per run),
     * and pointing no {@code latest} at it.
     *
     * @return 0 when every suite ran, 1 when one failed or produced no results
     */
    public static int run(RunSettings settings, PrintStream out) throws CommandLineOptionException {
        return run(settings, null, out, false);
    }

    /**
     * {@link #run(RunSettings, PrintStream)}, pointing {@code root/latest} at the folder once it has a row
     * (none when {@code root} is null), and with {@code onInterrupt} a shutdown hook that keeps what an
     * interrupt would otherwise lose.
     */
    static int run(RunSettings settings, Path root, PrintStream out, boolean onInterrupt)
            throws CommandLineOptionException {
        Map<String, Suite> available = suites();
        List<Suite> chosen = new ArrayList<>();
        for (String name : settings.suites()) {
            Suite suite = available.get(name);
            if (suite == null) {
                throw new IllegalArgumentException("unknown suite '" + name + "'; available: " + available.keySet());
            }
            Optional<String> why = suite.unavailable();
            if (why.isPresent()) {
                out.printf("=== caskbench suite '%s' skipped: %s%n", name, why.get());
            } else {
                chosen.add(suite);
            }
        }
        if (chosen.isEmpty()) {
            out.println("no suite left to run");
            return 0;
        }
        if (settings.profile() == Suite.Profile.SMOKE && System.getProperty("jmh.ignoreLock") == null) {
            // A smoke run measures nothing, so it need not wait for other JMH runs on the machine.
            System.setProperty("jmh.ignoreLock", "true");
        }
        CommandLineOptions cli = new CommandLineOptions(settings.jmhArgs().toArray(new String[0]));
        Path fills = fillCache();
        try {
            return run(settings, root, out, onInterrupt, chosen, cli, fills);
        } finally {
            deleteQuietly(fills);
        }
    }

    private static int run(RunSettings settings, Path root, PrintStream out, boolean onInterrupt, List<Suite> chosen,
            CommandLineOptions cli, Path fills) {
        Map<Suite, List<List<Trial>>> plan = plan(chosen, settings, cli, fills);
        List<Trial> all = plan.values().stream().flatMap(List::stream).flatMap(List::stream).toList();
        int runs = plan.values().stream().mapToInt(List::size).sum();

        Path dir = settings.results();
        Machine.capture().withLibraries(MeasuredLibraries.versions()).writeTo(dir);
        RunFolder folder = new RunFolder(dir, root, runs, all.size());
        folder.begin();
        Thread hook = new Thread(() -> {
            interrupted(folder, out);
            deleteQuietly(fills);
        }, "caskbench-interrupt");
        if (onInterrupt) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        Progress progress = new Progress(all, System::nanoTime);
        progress.start();
        out.println(progress.line());
        OutputFormat format = new ProgressFormat(OutputFormatFactory.createFormatInstance(out,
                cli.verbosity().orElse(VerboseMode.NORMAL)), progress, System::nanoTime);

        int status = 0;
        int index = 0;
        for (Map.Entry<Suite, List<List<Trial>>> entry : plan.entrySet()) {
            Suite suite = entry.getKey();
            if (folder.interrupted()) {
                break;
            }
            out.printf("%n=== caskbench suite '%s' (profile %s): %s%n", suite.name(),
                    settings.profile().name().toLowerCase(Locale.ROOT), suite.description());
            suite.beforeRuns(dir);
            boolean failed = false;
            for (List<Trial> run : entry.getValue()) {
                if (run.isEmpty()) {
                    out.println("(no benchmark of one of its runs matches the include filter; skipped)");
                }
                for (Trial trial : run) {
                    int at = index++;
                    if (failed || folder.interrupted()) {
                        continue;
                    }
                    progress.trialStarted(at);
                    try {
                        folder.rows(suite.name(), List.copyOf(new Runner(trial.options(), format).run()));
                    } catch (NoBenchmarksException e) {
                        out.println("(no benchmark matches " + trial.label() + "; skipped)");
                    } catch (RunnerException e) {
                        if (!folder.interrupted()) {
                            // Only a run that fails on error throws: the rest of the suite would fail alike.
                            e.printStackTrace(out);
                            status = 1;
                            failed = true;
                        }
                    }
                }
                if (!failed && !folder.interrupted()) {
                    folder.runDone();
                }
            }
            if (folder.interrupted()) {
                break;
            }
            List<RunResult> rows = folder.rowsOf(suite.name());
            if (rows.isEmpty()) {
                out.printf("suite '%s' produced no results; nothing written%n", suite.name());
                status = 1;
                continue;
            }
            out.printf("written: %s%n", folder.json(suite.name()));
            try {
                comparison(suite, settings, rows, out);
            } catch (IOException | RuntimeException e) {
                e.printStackTrace(out);
                status = 1;
            }
        }
        if (folder.interrupted()) {
            // The shutdown hook keeps what there is; the JVM is on its way out.
            return 130;
        }
        folder.finish();
        if (onInterrupt) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Shutdown already began: the hook finds the run complete and does nothing.
            }
        }
        try {
            out.printf("report : %s%n", Reports.renderAll(dir));
        } catch (RuntimeException e) {
            // The results are written; a failed page must not hide them.
            out.println("bench-report could not render " + dir + ": " + e);
            status = 1;
        }
        return status;
    }

    /** Every suite's runs, each split into its rows, with the user's arguments layered over the suite's. */
    private static Map<Suite, List<List<Trial>>> plan(List<Suite> suites, RunSettings settings, CommandLineOptions cli,
            Path fills) {
        // A regex among the arguments makes main() hand over to JMH; a caller of run() gets it as a filter.
        List<String> filters = new ArrayList<>(cli.getIncludes());
        if (!settings.include().isEmpty()) {
            filters.add(settings.include());
        }
        List<String> forkArgs = new ArrayList<>(ForkArgs.inherited(ManagementFactory.getRuntimeMXBean().getInputArguments(),
                settings.results()));
        // Each persistent store is filled once per invocation; later forks copy its files.
        forkArgs.add("-D" + FILL_CACHE + "=" + fills);
        Map<Suite, List<List<Trial>>> plan = new LinkedHashMap<>();
        for (Suite suite : suites) {
            List<List<Trial>> runs = new ArrayList<>();
            int i = 0;
            for (var builder : suite.runs(settings.profile())) {
                Options base = builder.build();
                Options layered = new LayeredOptions(cli, base, Includes.intersect(base.getIncludes(), filters));
                SortedSet<BenchmarkListEntry> matched = matching(layered);
                Options run = ForkArgs.replaceable(matched)
                        ? new LayeredOptions(cli, base, layered.getIncludes(), forkArgs) : layered;
                runs.add(Trial.split(suite.name(), i++, run, matched));
            }
            plan.put(suite, runs);
        }
        return plan;
    }

    /**
     * The shutdown hook: when the run is still going, marks it partial and says so, ends the benchmark
     * forks JMH started for it, and renders the report of the rows kept.
     */
    private static void interrupted(RunFolder folder, PrintStream out) {
        if (!folder.interrupt(out)) {
            return;
        }
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroy);
        if (folder.rowCount() > 0) {
            try {
                out.printf("report : %s%n", Reports.renderAll(folder.dir()));
            } catch (RuntimeException e) {
                out.println("bench-report could not render " + folder.dir() + ": " + e);
            }
        }
        out.flush();
        // A fork started while the hook ran must not outlive the run either.
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroy);
    }

    /** A new folder for the filled stores of this invocation, beside the stores' scratch folders. */
    private static Path fillCache() {
        try {
            Path base = Path.of(System.getProperty("caskbench.data", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, "caskbench-fills-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a folder for filled stores", e);
        }
    }

    /** Deletes {@code dir} and everything in it; a failure is reported, not thrown. */
    private static void deleteQuietly(Path dir) {
        try {
            if (Files.exists(dir)) {
                MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
            }
        } catch (IOException e) {
            System.err.println("caskbench: could not delete " + dir + ": " + e);
        }
    }

    /** The benchmarks JMH will run for {@code options}, found the way JMH's runner finds them. */
    private static SortedSet<BenchmarkListEntry> matching(Options options) {
        return BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT),
                options.getIncludes(), options.getExcludes());
    }

    /** Fewest forks any row had, and whether that makes the verdicts indicative. */
    static String forks(List<RunResult> results) {
        int fewest = results.stream().mapToInt(r -> r.getBenchmarkResults().size()).min().orElse(0);
        return fewest >= PUBLISHED_FORKS ? "at least " + fewest + " per row"
                : fewest + " per row at the fewest: verdicts are indicative (published verdicts need "
                        + PUBLISHED_FORKS + ")";
    }

    private static void comparison(Suite suite, RunSettings settings, List<RunResult> results, PrintStream out)
            throws IOException {
        Path dir = settings.results();
        Optional<String> comparison = suite.comparison(ResultRow.of(results), dir);
        if (comparison.isPresent()) {
            String text = "caskbench suite '" + suite.name() + "', profile "
                    + settings.profile().name().toLowerCase(Locale.ROOT) + "\n"
                    + "machine : " + Machine.read(dir).orElseGet(Machine::capture).oneLine() + "\n"
                    + "results : " + dir.resolve(suite.name() + ".json") + "\n"
                    + "forks   : " + forks(results) + "\n\n" + comparison.get();
            Path file = dir.resolve(suite.name() + "-comparison.txt");
            Files.writeString(file, text, StandardCharsets.UTF_8);
            out.printf("%n%s%nwritten: %s%n", text, file);
        }
    }
}
