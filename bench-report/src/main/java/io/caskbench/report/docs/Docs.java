package io.caskbench.report.docs;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunArchive;
import io.caskbench.report.input.RunRecord;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.table.EventOverheadTables;
import io.caskbench.report.table.FilesTables;
import io.caskbench.report.table.Headline;
import io.caskbench.report.table.LatencyTables;
import io.caskbench.report.table.OverwriteTables;
import io.caskbench.report.table.ReplicatedTables;
import io.caskbench.report.table.ScaleTables;
import io.caskbench.report.table.ShmTables;
import io.caskbench.report.table.StoreRows;
import io.caskbench.report.table.StoreTables;
import io.caskbench.report.table.TargetTables;
import io.caskbench.report.table.ThreadsTables;
import io.caskbench.report.table.VirtualTables;
import io.caskbench.report.text.Document;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes a run's comparison tables into the docs, so no published figure is typed by hand. A docs file
 * holds hand-written prose and one or more generated blocks:
 * <pre>
 * &lt;!-- generated:store begin --&gt;
 * ... rewritten by every {@code report docs} ...
 * &lt;!-- generated:store end --&gt;
 * </pre>
 * The name is the suite whose results fill the block: {@code store} ({@link StoreTables} of store.json),
 * {@code targets} (the targets table of targets.json), {@code latency} ({@link LatencyTables}), {@code scale}
 * ({@link ScaleTables}, with a chart of every store's get and of its put by key count), {@code files}
 * ({@link FilesTables}), {@code shm} ({@link ShmTables} of shm.json, shm-c.json and shm-messaging.json),
 * {@code overwrite} ({@link OverwriteTables}: a summary, the targets and charts over time from overwrite.json and
 * the run's time series), {@code threads} ({@link ThreadsTables}: the 1000-thread rows of threads.json, BitCask
 * against the best of all peers), {@code replicated} ({@link ReplicatedTables}: replicated rows as ratios of the
 * single-node store), {@code virtual} ({@link VirtualTables}), {@code events} ({@link EventOverheadTables}), or {@code headline} ({@link Headline}: a chart and three rows of store.json, for the
 * README). Charts go into the images folder. Each block starts by naming its
 * run (the run folder's name, committed under {@code docs/runs/} by {@link RunArchive}), the command that
 * produced the results, the machine, the date and the fork counts, and the command that generated the block.
 * A block with no committed run yet holds {@link #placeholder} instead, which says so and how to fill it.
 */
public final class Docs {

    /** The suites a block can name. */
    public static final List<String> SUITES = List.of("store", "targets", "latency", "scale", "files", "shm", "headline", "overwrite",
            "threads", "replicated", "virtual", "events");

    /** A generated block: its suite in group 1, its body in group 2. */
    static final Pattern BLOCK = Pattern.compile(
            "<!-- generated:([a-z]+) begin -->\\n(.*?)<!-- generated:\\1 end -->", Pattern.DOTALL);
    /** The first line of a block that no committed run has filled yet. */
    public static final String NO_RUN = "<!-- no committed run yet -->";
    /** The suites whose blocks draw a chart, written into the images folder. */
    private static final List<String> CHARTED = List.of("headline", "scale", "overwrite");

    private Docs() {
    }

    /**
     * Where a block's chart files go.
     *
     * @param dir the folder to write them into
     * @param link how the Markdown file refers to that folder (relative to the file, with {@code /})
     */
    public record Images(Path dir, String link) {
    }

    /**
     * The outcome of {@link #fill}.
     *
     * @param text the new text
     * @param written the blocks rewritten, by suite
     * @param left the blocks left as they were because the run has no results for their suite
     */
    public record Filled(String text, List<String> written, List<String> left) {
    }

    /**
     * Rewrites every generated block of {@code text} whose suite has results in {@code results}, and leaves
     * the others as they were: a file can hold blocks of suites that ran separately ({@code store.md} holds
     * the store and the targets blocks), each written after its own run.
     *
     * @param invocation how the docs command was called, named in each block
     * @throws IllegalArgumentException when the text has no block, or the run has results for none of them
     */
    public static Filled fill(String text, Path results, String invocation, Images images) {
        Matcher m = BLOCK.matcher(text);
        StringBuilder out = new StringBuilder();
        List<String> written = new ArrayList<>();
        List<String> left = new ArrayList<>();
        while (m.find()) {
            String suite = m.group(1);
            if (ResultFile.in(results, source(suite)).isPresent()) {
                m.appendReplacement(out, Matcher.quoteReplacement(block(results, suite, invocation, 4, images)));
                written.add(suite);
            } else {
                m.appendReplacement(out, Matcher.quoteReplacement(m.group()));
                left.add(suite);
            }
        }
        if (written.isEmpty() && left.isEmpty()) {
            throw new IllegalArgumentException("no <!-- generated:<suite> begin --> ... end --> block to fill");
        }
        if (written.isEmpty()) {
            throw new IllegalArgumentException("no results in " + results + " for any block (" + String.join(", ", left)
                    + "): run those suites first");
        }
        m.appendTail(out);
        return new Filled(out.toString(), written, left);
    }

    /** The results file a block is drawn from: the headline comes from the store suite's. */
    private static String source(String suite) {
        return suite.equals("headline") ? "store" : suite;
    }

    /** A whole generated file for one suite: a title and its block. */
    public static String file(Path results, String suite, String title, String invocation, Images images) {
        return "# " + title + "\n\n" + block(results, suite, invocation, 2, images);
    }

    /**
     * The block of a file whose suite has no committed run yet: a marked state, with the commands that fill it.
     *
     * @param suite the block's suite
     * @param file the Markdown file, relative to the repository root, as the docs command is given it
     */
    public static String placeholder(String suite, String file) {
        Path parent = Path.of(file).getParent();
        boolean atRoot = parent == null;
        String images = CHARTED.contains(suite) && atRoot ? " --images docs/img" : "";
        String report = "./mvnw -B -q -pl bench-report package exec:exec -DskipTests -Dreport.args=";
        return "<!-- generated:" + suite + " begin -->\n" + NO_RUN + "\n"
                + "_No committed run yet: this block is filled from a run committed under `" + RunArchive.RUNS
                + "/`. Archive a finished run, then generate the block from the committed copy:_\n\n"
                + "```sh\n"
                + report + "\"archive results/<run>\"\n"
                + report + "\"docs " + RunArchive.RUNS + "/<run> " + file + images + "\"\n"
                + "```\n"
                + "<!-- generated:" + suite + " end -->";
    }

    /** One block, markers included, with its headings at {@code level}. */
    static String block(Path results, String suite, String invocation, int level, Images images) {
        String source = source(suite);
        List<JmhResult> rows = rows(results, source);
        String machine = Machine.read(results).map(Machine::oneLine)
                .orElse("unknown: the run folder has no machine.json (`report machine DIR` writes one)");
        Document doc = switch (suite) {
            // The targets have a block of their own (from the targets suite): one figure per ratio per page.
            case "store" -> StoreTables.render(rows, stopped(results), false);
            case "targets" -> {
                Document d = new Document();
                TargetTables.render(d, new StoreRows(rows));
                yield d;
            }
            case "latency" -> LatencyTables.render(rows);
            case "scale" -> ScaleTables.render(rows, machine, images.dir(), images.link());
            case "files" -> FilesTables.render(rows);
            case "shm" -> ShmTables.render(rows, ShmTables.l3(results));
            case "headline" -> Headline.render(rows, machine, images.dir(), images.link());
            case "overwrite" -> OverwriteTables.render(rows, results, machine, images.dir(), images.link());
            case "threads" -> ThreadsTables.render(rows, stopped(results));
            case "replicated" -> ReplicatedTables.render(rows);
            case "virtual" -> VirtualTables.render(rows);
            case "events" -> EventOverheadTables.render(rows);
            default -> throw new IllegalArgumentException("unknown suite " + suite + "; known: " + SUITES);
        };
        String run = RunRecord.read(results, source).orElse("not recorded");
        StringBuilder out = new StringBuilder();
        out.append("<!-- generated:").append(suite).append(" begin -->\n");
        out.append("_Generated by bench-report (`").append(invocation).append("`) from the ")
                .append(source).append(" results; edit the generator, not this block._\n\n");
        out.append("- run: `").append(results.getFileName()).append("`\n");
        out.append("- command: `").append(run).append("`\n");
        out.append("- machine and date: ").append(machine).append('\n');
        Machine.read(results).map(Machine::librariesLine).filter(l -> !l.isEmpty())
                .ifPresent(l -> out.append("- libraries: ").append(l).append('\n'));
        out.append("- forks per row: ").append(forks(rows)).append("\n\n");
        out.append(doc.markdown(level));
        out.append("<!-- generated:").append(suite).append(" end -->");
        return out.toString();
    }

    /**
     * {@code 5 (all 42 rows)}, or the count of rows per fork count, with a note when some have too few;
     * counted from the forks that produced data, with the rows where a configured fork left none named.
     */
    public static String forks(List<JmhResult> rows) {
        String counted = forkCounts(rows);
        List<String> shortRows = rows.stream().filter(JmhResult::shortOfForks)
                .map(r -> r.shortName() + (r.params().isEmpty() ? "" : " {" + r.paramsLabel() + "}") + ": "
                        + r.forksCell())
                .toList();
        return shortRows.isEmpty() ? counted
                : counted + "; fewer forks of data than configured (a fork failed; see the run log): "
                        + String.join("; ", shortRows);
    }

    private static String forkCounts(List<JmhResult> rows) {
        Map<Integer, Long> counts = rows.stream().collect(Collectors.groupingBy(JmhResult::measuredForks,
                TreeMap::new, Collectors.counting()));
        int min = Spread.PUBLISHED_FORKS;
        if (counts.size() == 1) {
            Map.Entry<Integer, Long> only = counts.entrySet().iterator().next();
            return only.getKey() + " (all " + only.getValue() + " rows)"
                    + (only.getKey() < min ? "; fewer than " + min + " forks: every verdict is indicative" : "");
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((forks, n) -> parts.add(forks + " (" + n + " rows)"));
        return String.join(", ", parts) + (counts.keySet().iterator().next() < min
                ? "; verdicts on rows with fewer than " + min + " forks are indicative" : "");
    }

    /**
     * A suite's rows: bench-shm's three files for {@code shm}, one file for every other suite (the
     * {@code threads} suite's 1000-thread rows have a block of their own, never the store block's).
     */
    private static List<JmhResult> rows(Path results, String suite) {
        List<String> names = switch (suite) {
            case "shm" -> List.of("shm", "shm-c", "shm-messaging");
            default -> List.of(suite);
        };
        List<JmhResult> rows = new ArrayList<>();
        for (String name : names) {
            java.util.Optional<Path> json = ResultFile.in(results, name);
            if (json.isPresent()) {
                rows.addAll(ResultFile.read(json.get()).results());
            } else if (name.equals(suite)) {
                throw new IllegalArgumentException("no " + results.resolve(name + ".json") + ": run the " + suite
                        + " suite first");
            }
        }
        return rows;
    }

    /** The 1000-thread runs the store suite stopped at their time limit (bench-jmh's store-stopped.txt). */
    private static List<String> stopped(Path results) {
        Path file = results.resolve("store-stopped.txt");
        try {
            return Files.isRegularFile(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
