package io.caskbench.report.cli;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunArchive;
import io.caskbench.report.input.RunFolders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code docs <run> <file>}: rewrites the generated blocks of a docs file from one run folder ({@link Docs}),
 * normally a committed run under {@code docs/runs/}; with {@code --suite}, writes a whole file of one suite's
 * tables instead. A block with a chart (the README's headline, the scale block) writes it into
 * {@code --images}. A results root is refused: a block names the one run it comes from.
 */
@Command(name = "docs", mixinStandardHelpOptions = true,
        description = {"Rewrite the <!-- generated:<suite> --> blocks of FILE from the run folder DIR (a committed",
            "run under docs/runs, or a run folder under results; never a results root), leaving blocks of",
            "suites the run lacks as they were; or with --suite write FILE whole: tables, run, command,",
            "machine, date and forks from the JSON."})
final class DocsCommand implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "run folder, e.g. docs/runs/<run>")
    private Path results;

    @Parameters(index = "1", paramLabel = "FILE", description = "the Markdown file to write")
    private Path file;

    @Option(names = "--suite", paramLabel = "SUITE",
            description = "write FILE whole with this suite's tables (store, targets, latency, scale, files, shm, overwrite,"
                    + " virtual, events)")
    private String suite;

    @Option(names = "--title", paramLabel = "TITLE", description = "the title of a whole file (with --suite)")
    private String title;

    @Option(names = "--images", paramLabel = "DIR",
            description = "where a block's charts go (the headline's, the scale and overwrite blocks'); default: img beside FILE")
    private Path images;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(results)) {
            spec.commandLine().getErr().println("error: no results folder at " + results.toAbsolutePath());
            return 2;
        }
        // A block names one run: a results root (whose latest run changes under it) is refused.
        if (RunFolders.latest(results).isPresent() || ResultFile.listIn(results).isEmpty()) {
            spec.commandLine().getErr().println("error: " + results + " is not a run folder (no JMH results in it"
                    + (RunFolders.latest(results).isPresent() ? "; it is a results root" : "") + "): give one run,"
                    + " such as " + RunArchive.RUNS + "/<run> (see `report archive`)");
            return 2;
        }
        Path run = results;
        String invocation = "docs " + shown(results) + " " + shown(file) + (suite == null ? "" : " --suite " + suite);
        Path base = file.toAbsolutePath().normalize().getParent();
        Path imageDir = images == null ? base.resolve("img") : images.toAbsolutePath().normalize();
        if (images != null) {
            invocation += " --images " + shown(images);
        }
        Docs.Images where = new Docs.Images(imageDir, base.relativize(imageDir).toString().replace('\\', '/'));
        String text;
        List<String> left = List.of();
        if (suite != null) {
            text = Docs.file(run, suite, title == null ? suite + " results" : title, invocation, where) + "\n";
        } else if (Files.isRegularFile(file)) {
            Docs.Filled filled = Docs.fill(Files.readString(file, StandardCharsets.UTF_8), run, invocation, where);
            text = filled.text();
            left = filled.left();
        } else {
            spec.commandLine().getErr().println("error: " + file + " does not exist; give --suite to write it whole");
            return 2;
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
        spec.commandLine().getOut().println("written: " + file.toAbsolutePath().normalize() + " from " + run);
        if (!run.toAbsolutePath().normalize().getParent().endsWith(RunArchive.RUNS)) {
            spec.commandLine().getOut().println("note: " + run + " is not a committed run; the published-docs test"
                    + " accepts blocks from " + RunArchive.RUNS + "/<run> only (`report archive " + run + "` copies it)");
        }
        for (String block : left) {
            spec.commandLine().getOut().println("left as it was: the " + block + " block (this run has no "
                    + (block.equals("headline") ? "store" : block) + " results)");
        }
        return 0;
    }

    /**
     * A path as a block names it: relative to the working directory (the checkout, for the Maven command)
     * when it lies below it, so the published-docs check can run the same command from the checkout.
     */
    static String shown(Path path) {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        Path abs = path.toAbsolutePath().normalize();
        return abs.startsWith(cwd) ? cwd.relativize(abs).toString().replace('\\', '/') : path.toString();
    }
}
