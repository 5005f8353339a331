package io.caskbench.report.page;

import io.caskbench.report.input.CacheState;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.rule.SuiteResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Renders a results folder: a {@code <name>-summary.txt} for every JMH result file (below whatever the
 * runner wrote into that file itself, see {@link Summaries#MARKER}) and one
 * {@code index.html} (charts inline as SVG, or as PNGs beside it on request) for the whole folder. Runners call
 * {@link #renderAll(Path)} at the end of a run; {@code ReportCli render} does the same on demand.
 */
public final class Reports {

    /** File name of the HTML page inside the results folder. */
    public static final String INDEX = "index.html";

    private Reports() {
    }

    /**
     * Renders whatever subset of result files the folder holds; unknown suites and benchmarks render
     * without reference ratios rather than failing.
     *
     * @param resultsDir the results folder (created if missing, so an empty run still gets a page)
     * @return the path of {@code index.html}
     */
    public static Path renderAll(Path resultsDir) {
        return renderAll(resultsDir, false);
    }

    /**
     * {@link #renderAll(Path)}, with the charts as PNG files beside the page when {@code pngCharts} is
     * set, and as SVG inside it otherwise.
     */
    public static Path renderAll(Path resultsDir, boolean pngCharts) {
        try {
            Files.createDirectories(resultsDir);
            List<ResultFile> files = ResultFile.listIn(resultsDir);
            List<SuiteResults> suites = SuiteResults.group(files);
            Machine machine = Machine.read(resultsDir).orElse(null);
            String machineLine = machine == null ? "unknown (no machine.json in " + resultsDir + ")" : machine.oneLine();
            CacheState cache = CacheState.read(resultsDir);
            deleteOldCharts(resultsDir);
            for (SuiteResults suite : suites) {
                for (ResultFile f : suite.files()) {
                    Path summary = resultsDir.resolve(f.name() + "-summary.txt");
                    String existing = Files.exists(summary) ? Files.readString(summary, StandardCharsets.UTF_8) : "";
                    Files.writeString(summary, Summaries.merge(existing, Summaries.render(f, suite, machineLine, cache)),
                            StandardCharsets.UTF_8);
                }
            }
            Path index = resultsDir.resolve(INDEX);
            Files.writeString(index, new HtmlReport(resultsDir, machine, suites, cache, pngCharts).render(), StandardCharsets.UTF_8);
            return index;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot render the report in " + resultsDir, e);
        }
    }

    /** Charts of an earlier render whose benchmark is gone would otherwise linger beside the page. */
    private static void deleteOldCharts(Path dir) throws IOException {
        try (var files = Files.newDirectoryStream(dir, "chart-*.png")) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        }
    }
}
