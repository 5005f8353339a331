package io.caskbench.report.testing;

import io.caskbench.report.cli.ReportCli;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/** Copies checked-in sample result folders out of the test classpath into a temp folder. */
public final class SampleRuns {

    /** Every file of the sample folders; listed because a classpath folder cannot be listed portably. */
    private static final List<String> FILES = List.of("machine.json", "store.json", "files.json",
            "shm.json", "shm-c.json", "shm-messaging.json", "threads.json", "threads-run.txt", "virtual.json",
            "events.json");

    private SampleRuns() {
    }

    /** A page with prose around one empty generated block of {@code suite}. */
    public static String page(String suite) {
        return "# caskbench\n\nIntro.\n\n<!-- generated:" + suite + " begin -->\n<!-- generated:" + suite
                + " end -->\n\nLinks.\n";
    }

    /** Runs the report command line with {@code args}, its normal output dropped; returns its exit code. */
    public static int report(String... args) {
        var cli = ReportCli.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        return cli.execute(args);
    }

    /** Copies {@code /<name>/*} into {@code <dir>/<name>} and returns that folder. */
    public static Path copy(String name, Path dir) throws IOException {
        Path out = Files.createDirectories(dir.resolve(name));
        for (String f : FILES) {
            try (InputStream in = SampleRuns.class.getResourceAsStream("/" + name + "/" + f)) {
                if (in != null) {
                    Files.copy(in, out.resolve(f));
                }
            }
        }
        return out;
    }

    /**
     * The outcome of one call of the report command line.
     *
     * @param code its exit code
     * @param out what it printed
     * @param err what it printed as errors
     */
    public record Run(int code, String out, String err) {
    }

    /** Runs the report command line with {@code args} and keeps its exit code and both outputs. */
    public static Run cli(String... args) {
        CommandLine cl = ReportCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }
}
