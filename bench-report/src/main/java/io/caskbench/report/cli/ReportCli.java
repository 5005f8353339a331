package io.caskbench.report.cli;

import io.caskbench.report.docs.PublishedBlocks;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunArchive;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.page.Reports;
import io.caskbench.report.rule.Comparison;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The report's command line: {@code render <dir>} writes summaries and index.html for a results
 * folder, {@code compare <old> <new>} compares two runs, {@code machine <dir>} records this machine.
 * A results root (the folder holding one folder per run and {@code latest}) stands for its latest run.
 *
 * <p>Exit codes: 0 success, 1 a regression beyond {@code --fail-above}, 2 bad usage or unreadable input,
 * 3 the runs share too few benchmarks to be compared ({@code --min-match}).
 */
@Command(name = "report", mixinStandardHelpOptions = true, version = "caskbench bench-report 0.1.0",
        description = "caskbench results: render a results folder, or compare two runs.",
        subcommands = {ReportCli.Render.class, ReportCli.Compare.class, ReportCli.MachineCmd.class, DocsCommand.class,
            ReportCli.Archive.class, ReportCli.CheckDocs.class})
public final class ReportCli implements Runnable {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code instead of exiting (for tests and callers). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The configured picocli command line, so tests can redirect its output. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new ReportCli());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + ex.getMessage());
            return 2;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code render <dir>}: summaries and index.html for one results folder. */
    @Command(name = "render", mixinStandardHelpOptions = true,
            description = {"Write <name>-summary.txt for every JMH JSON file in DIR, and index.html: one file,",
                "charts drawn inline as SVG. DIR may be a results root; its latest run is rendered."})
    static final class Render implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "run folder or results root (default: ${DEFAULT-VALUE})",
                defaultValue = "results")
        private Path dir;

        @Option(names = "--if-present", description = "when DIR does not exist yet, say so and succeed without "
                + "writing anything (for builds that render whatever a checkout already has)")
        private boolean ifPresent;

        @Option(names = "--png", description = "draw the charts as PNG files beside index.html instead of inline SVG")
        private boolean png;

        @Override
        public Integer call() {
            if (!Files.isDirectory(dir)) {
                if (ifPresent) {
                    spec.commandLine().getOut().println("no results yet in " + dir.toAbsolutePath().normalize());
                    return 0;
                }
                spec.commandLine().getErr().println("error: no results folder at " + dir.toAbsolutePath());
                return 2;
            }
            Path index = Reports.renderAll(RunFolders.resolve(dir), png);
            spec.commandLine().getOut().println("report: " + index.toAbsolutePath().normalize());
            return 0;
        }
    }

    /** {@code compare <old> <new>}: benchmark-by-benchmark changes between two runs. */
    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = {"Compare two runs (run folders, results roots or JMH JSON files) benchmark by benchmark.",
                "A change is real when it exceeds the two runs' combined 99.9% error.",
                "A results root stands for its latest run."})
    static final class Compare implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "OLD", description = "the baseline: run folder, results root or JSON file")
        private Path oldArg;

        @Parameters(index = "1", paramLabel = "NEW", description = "the candidate: run folder, results root or JSON file")
        private Path newArg;

        @Option(names = "--fail-above", paramLabel = "PCT",
                description = "exit 1 when any benchmark is worse by more than PCT percent "
                        + "(beyond the combined error, or without an error estimate)")
        private Double failAbove;

        @Option(names = "--min-match", paramLabel = "PCT", defaultValue = "50",
                description = "exit 3 when the new run has fewer than PCT percent of the old run's benchmarks "
                        + "(default: ${DEFAULT-VALUE}); 0 compares whatever the two runs share")
        private double minMatch;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (Path p : List.of(oldArg, newArg)) {
                if (!Files.exists(p)) {
                    spec.commandLine().getErr().println("error: " + p + " does not exist");
                    return 2;
                }
            }
            Path oldRun = RunFolders.resolve(oldArg);
            Path newRun = RunFolders.resolve(newArg);
            List<JmhResult> olds = ResultFile.readAll(oldRun);
            List<JmhResult> news = ResultFile.readAll(newRun);
            Optional<Machine> mo = machineOf(oldRun);
            Optional<Machine> mn = machineOf(newRun);
            out.println("old: " + oldRun + mo.map(m -> "  (" + m.oneLine() + ")").orElse(""));
            out.println("new: " + newRun + mn.map(m -> "  (" + m.oneLine() + ")").orElse(""));
            if (mo.isPresent() && mn.isPresent() && !sameHardware(mo.get(), mn.get())) {
                out.println("warning: the runs come from different machines or JDKs; changes may be hardware, not code");
            }
            out.println();
            Comparison c = Comparison.of(olds, news);
            out.print(c.table());
            out.println();
            out.println(c.verdict(Optional.ofNullable(failAbove)));
            out.printf(Locale.ROOT, "matched: %d of the old run's %d benchmarks (%.1f%%)%n", c.matched(), c.baseline(),
                    c.matchedPct());
            Optional<String> tooFew = c.tooFewMatched(minMatch);
            tooFew.ifPresent(out::println);
            out.flush();
            if (tooFew.isPresent()) {
                spec.commandLine().getErr().println("error: " + tooFew.get().substring("FAIL: ".length()));
                return 3;
            }
            return failAbove != null && !c.failing(failAbove).isEmpty() ? 1 : 0;
        }

        private static Optional<Machine> machineOf(Path p) {
            return Machine.read(Files.isDirectory(p) ? p : p.toAbsolutePath().getParent());
        }

        private static boolean sameHardware(Machine a, Machine b) {
            return a.cpuCount() == b.cpuCount() && a.cpuModel().equals(b.cpuModel()) && a.jdkVersion().equals(b.jdkVersion());
        }
    }

    /** {@code machine <dir>}: writes machine.json, for runners that are not Java (the C anchors' script). */
    @Command(name = "machine", mixinStandardHelpOptions = true, description = "Write DIR/machine.json describing this machine.")
    static final class MachineCmd implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
        private Path dir;

        @Override
        public Integer call() {
            spec.commandLine().getOut().println("machine: " + Machine.write(dir).toAbsolutePath().normalize());
            return 0;
        }
    }

    /** {@code archive <run> [--to docs/runs]}: copies a run folder into the repository, compressed ({@link RunArchive}). */
    @Command(name = "archive", mixinStandardHelpOptions = true,
            description = {"Copy the run folder RUN into TO/<run-folder-name> (default docs/runs), JMH JSON, the",
                "run log and time series (.csv) gzip-compressed, so the docs blocks generated from it can be checked",
                "and audited."})
    static final class Archive implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "RUN", description = "a run folder, such as results/<run>")
        private Path run;

        @Option(names = "--to", paramLabel = "TO", defaultValue = RunArchive.RUNS,
                description = "where committed runs live (default: ${DEFAULT-VALUE})")
        private Path to;

        @Override
        public Integer call() {
            try {
                Path target = RunArchive.archive(run, to);
                spec.commandLine().getOut().println("archived: " + target + "; now `report docs " + to + "/"
                        + target.getFileName() + " FILE` for each file with its blocks, and commit both");
                return 0;
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return 2;
            }
        }
    }

    /** {@code check-docs [ROOT]}: regenerates every published block from the committed runs ({@link PublishedBlocks}). */
    @Command(name = "check-docs", mixinStandardHelpOptions = true,
            description = {"Regenerate every generated block of ROOT/README.md and ROOT/docs/*.md from the committed",
                "run it names and report any difference; a block with no committed run must be the placeholder."})
    static final class CheckDocs implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "ROOT", defaultValue = ".", description = "the checkout (default: ${DEFAULT-VALUE})")
        private Path root;

        @Option(names = "--charts", description = "also compare each chart a block draws with its published file, byte for"
                + " byte (on the machine that drew them: the drawing depends on its fonts)")
        private boolean charts;

        @Override
        public Integer call() {
            PublishedBlocks.Outcome outcome = PublishedBlocks.check(root, charts);
            outcome.problems().forEach(p -> spec.commandLine().getErr().println("FAIL: " + p));
            spec.commandLine().getOut().println(outcome.summary());
            return outcome.problems().isEmpty() ? 0 : 1;
        }
    }
}
