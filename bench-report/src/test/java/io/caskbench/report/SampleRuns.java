package io.caskbench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Copies checked-in sample result folders out of the test classpath into a temp folder. */
final class SampleRuns {

    /** Every file of the sample folders; listed because a classpath folder cannot be listed portably. */
    private static final List<String> FILES = List.of("machine.json", "store.json", "files.json",
            "shm.json", "shm-c.json", "shm-messaging.json", "threads.json", "threads-run.txt", "virtual.json",
            "events.json");

    private SampleRuns() {
    }

    /** A page with prose around one empty generated block of {@code suite}. */
    static String page(String suite) {
        return "# caskbench\n\nIntro.\n\n<!-- generated:" + suite + " begin -->\n<!-- generated:" + suite
                + " end -->\n\nLinks.\n";
    }

    /** Runs the report command line with {@code args}, its normal output dropped; returns its exit code. */
    static int report(String... args) {
        var cli = ReportCli.commandLine();
        cli.setOut(new java.io.PrintWriter(new java.io.StringWriter()));
        return cli.execute(args);
    }

    /** Copies {@code /<name>/*} into {@code <dir>/<name>} and returns that folder. */
    static Path copy(String name, Path dir) throws IOException {
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
}
