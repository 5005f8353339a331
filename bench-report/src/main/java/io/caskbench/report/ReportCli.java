package io.caskbench.report;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 *
 * <p>Exit codes: 0 success, 1 a regression beyond {@code --fail-above}, 2 bad usage or unreadable input.
 */
@Command(name = "report", mixinStandardHelpOptions = true, version = "caskbench bench-report 0.1.0",
        description = "caskbench results: render a results folder, or compare two runs.",
        subcommands = {ReportCli.Render.class, ReportCli.Compare.class, ReportCli.MachineCmd.class, DocsCommand.class})
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
            description = "Write <name>-summary.txt for every JMH JSON file and index.html (+ chart PNGs) in DIR.")
    static final class Render implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "results folder (default: ${DEFAULT-VALUE})",
                defaultValue = "results")
        private Path dir;

        @Option(names = "--if-present", description = "when DIR does not exist yet, create it, write only "
                + "machine.json and succeed (what a benchmark run does before its first results)")
        private boolean ifPresent;

        @Override
        public Integer call() {
            if (!Files.isDirectory(dir)) {
                if (ifPresent) {
                    Path written = Machine.write(dir);
                    spec.commandLine().getOut().println("no results yet; machine: " + written.toAbsolutePath().normalize());
                    return 0;
                }
                spec.commandLine().getErr().println("error: no results folder at " + dir.toAbsolutePath());
                return 2;
            }
            Path index = Reports.renderAll(dir);
            spec.commandLine().getOut().println("report: " + index.toAbsolutePath().normalize());
            return 0;
        }
    }

    /** {@code compare <old> <new>}: benchmark-by-benchmark changes between two runs. */
    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = {"Compare two runs (results folders or JMH JSON files) benchmark by benchmark.",
                "A change is real when it exceeds the two runs' combined 99.9% error."})
    static final class Compare implements Callable<Integer> {

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "OLD", description = "the baseline: results folder or JSON file")
        private Path oldRun;

        @Parameters(index = "1", paramLabel = "NEW", description = "the candidate: results folder or JSON file")
        private Path newRun;

        @Option(names = "--fail-above", paramLabel = "PCT",
                description = "exit 1 when any benchmark is worse by more than PCT percent "
                        + "(beyond the combined error, or without an error estimate)")
        private Double failAbove;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (Path p : List.of(oldRun, newRun)) {
                if (!Files.exists(p)) {
                    spec.commandLine().getErr().println("error: " + p + " does not exist");
                    return 2;
                }
            }
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
            out.flush();
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
}
