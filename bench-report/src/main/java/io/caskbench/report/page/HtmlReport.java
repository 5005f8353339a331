package io.caskbench.report.page;

import static io.caskbench.report.chart.ChartSvg.esc;

import io.caskbench.report.chart.ChartSvg;
import io.caskbench.report.chart.Charts;
import io.caskbench.report.input.CacheState;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Machine;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.input.Units;
import io.caskbench.report.rule.CrossCheck;
import io.caskbench.report.rule.ReferenceRule;
import io.caskbench.report.rule.SuiteResults;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Builds the index.html of a results folder as one self-contained file: inline CSS, charts as inline
 * SVG with a tooltip on every bar, no scripts and no network access, so it can be mailed or attached
 * to a CI run and opens offline. On request the charts are PNG files beside the page instead.
 */
final class HtmlReport {

    private static final String CSS = String.join("\n",
            "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:0;color:#1d2329;background:#fafbfc}",
            "main{max-width:1280px;margin:0 auto;padding:16px 28px 48px}",
            "header{background:#243447;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}",
            "header p{margin:0;opacity:.85}nav{margin-top:10px}nav a{color:#cfe3ff;margin-right:14px}",
            "h2{margin:34px 0 6px;padding-bottom:4px;border-bottom:2px solid #d6dde5}h3{margin:20px 0 6px}",
            "p.rule{color:#4a5663;margin:4px 0 10px}",
            "table{border-collapse:collapse;background:#fff;margin:8px 0 16px;font-size:13px}",
            "th,td{border:1px solid #dde3ea;padding:4px 8px;text-align:left;vertical-align:top}",
            "th{background:#eef2f6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.nw{white-space:nowrap}",
            "tr.ref td{background:#f1f7ff;font-weight:600}tr.warn td{background:#fff6e5}",
            ".faster{color:#16794a}.slower{color:#b3261e}.muted{color:#6b7785}.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:11px;font-weight:600}",
            ".cold{background:#dbeafe;color:#1e40af}.notcold{background:#fde2e1;color:#9b1c1c}",
            "figure{margin:10px 0 18px;background:#fff;border:1px solid #dde3ea;padding:8px;display:inline-block;max-width:100%}",
            "figure img,figure svg{max-width:100%;height:auto;display:block}figcaption{color:#4a5663;font-size:12px;margin-top:4px}",
            "svg .tips rect:hover{fill-opacity:.12}tr.xcheck td{background:#f3f3f3;color:#6b7785}.xbadge{background:#e5e7eb;color:#374151}",
            "dl.machine{display:grid;grid-template-columns:max-content auto;gap:2px 16px;background:#fff;border:1px solid #dde3ea;padding:10px 14px}",
            "dl.machine dt{font-weight:600}dl.machine dd{margin:0}",
            "table.seeds td.ours{min-width:200px;max-width:340px;overflow-wrap:anywhere}table.seeds td:first-child{max-width:320px}",
            "tr.group th{background:#243447;color:#fff;text-align:left}",
            "p.partial{background:#fff6e5;border:1px solid #f0c36d;padding:8px 12px}",
            "footer{color:#6b7785;font-size:12px;margin-top:40px}code{background:#eef2f6;padding:1px 4px;border-radius:3px}");

    private static final java.util.regex.Pattern PERCENTILE = java.util.regex.Pattern.compile("^\\W?p[01]\\.\\d+$");

    private final Path dir;
    private final Machine machine;
    private final List<SuiteResults> suites;
    private final CacheState cache;
    private final boolean pngCharts;
    private int charts;

    /**
     * @param pngCharts whether charts are PNG files beside the page rather than SVG inside it
     */
    HtmlReport(Path dir, Machine machine, List<SuiteResults> suites, CacheState cache, boolean pngCharts) {
        this.dir = dir;
        this.machine = machine;
        this.suites = suites;
        this.cache = cache;
        this.pngCharts = pngCharts;
    }

    String render() {
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
                .append("<title>caskbench results</title><style>\n").append(CSS).append("\n</style></head><body>\n");
        h.append("<header><h1>caskbench results</h1><p>")
                .append(esc(machine == null ? "machine unknown: no machine.json in this folder" : machineLabel()))
                .append("</p><nav><a href=\"#machine\">machine</a>");
        for (SuiteResults s : suites) {
            h.append("<a href=\"#suite-").append(esc(s.name())).append("\">").append(esc(s.name())).append("</a>");
        }
        h.append("<a href=\"#seeds\">reference experiments</a></nav></header>\n<main>\n");
        // A run stopped before its end shows only the rows it finished; say so before any of them.
        RunFolders.partial(dir).ifPresent(why -> h.append("<p class=\"partial\"><strong>partial run</strong>: ")
                .append(esc(why)).append(". Only the rows it finished are shown.</p>\n"));
        machineSection(h);
        if (suites.isEmpty()) {
            h.append("<p>No JMH result files (<code>*.json</code>) in <code>").append(esc(dir.toString()))
                    .append("</code> yet.</p>\n");
        }
        for (SuiteResults s : suites) {
            suiteSection(h, s);
        }
        seedSection(h);
        h.append("<footer>Generated ").append(OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS))
                .append(" by caskbench bench-report from <code>").append(esc(dir.toAbsolutePath().normalize().toString()))
                .append("</code>. Error = half-width of JMH's 99.9% confidence interval. Re-render with ")
                .append("<code>mvn -q -pl bench-report package exec:exec -Dreport.args=\"render ")
                .append(esc(dir.toAbsolutePath().normalize().toString())).append("\"</code>.</footer>\n");
        h.append("</main></body></html>\n");
        return h.toString();
    }

    /** Short machine label for charts and the page header. */
    String machineLabel() {
        if (machine == null) {
            return "machine unknown";
        }
        return String.format(Locale.ROOT, "%d CPUs %s, %.1f GiB, JDK %s, %s %s, %s", machine.cpuCount(),
                machine.cpuModel(), machine.memoryBytes() / (1024.0 * 1024 * 1024), machine.jdkVersion(),
                machine.osName(), machine.osVersion(), machine.date());
    }

    private void machineSection(StringBuilder h) {
        h.append("<h2 id=\"machine\">Machine</h2>\n");
        if (machine == null) {
            h.append("<p class=\"muted\">No <code>machine.json</code> in this folder. The benchmark runners write it at the")
                    .append(" start of a run; for results made another way, <code>./mvnw -B -q -pl bench-report package")
                    .append(" exec:exec -DskipTests -Dreport.args=\"machine ").append(esc(dir.toString()))
                    .append("\"</code> writes it (run it on the machine that measured them).</p>\n");
            return;
        }
        h.append("<dl class=\"machine\">");
        dl(h, "CPUs", machine.cpuCount() + " x " + machine.cpuModel());
        dl(h, "Memory", String.format(Locale.ROOT, "%.1f GiB", machine.memoryBytes() / (1024.0 * 1024 * 1024)));
        dl(h, "JDK", machine.jdkVendor() + " " + machine.jdkVersion() + " (" + machine.vmName() + ")");
        dl(h, "java.home", machine.javaHome());
        dl(h, "OS", machine.osName() + " " + machine.osVersion() + " (" + machine.osArch() + ")");
        dl(h, "Date", machine.date());
        h.append("</dl>\n");
    }

    private static void dl(StringBuilder h, String k, String v) {
        h.append("<dt>").append(esc(k)).append("</dt><dd>").append(esc(v)).append("</dd>");
    }

    private void suiteSection(StringBuilder h, SuiteResults s) {
        h.append("<h2 id=\"suite-").append(esc(s.name())).append("\">").append(esc(s.name())).append("</h2>\n");
        h.append("<p class=\"rule\">").append(esc(s.rule().description())).append(". Files: ")
                .append(s.files().stream().map(f -> "<code>" + esc(f.name()) + ".json</code>").collect(Collectors.joining(", ")))
                .append(".</p>\n");
        if (s.pool().stream().anyMatch(CacheState::isColdRequested)) {
            coldCheck(h, s);
        }
        for (Charts.Spec spec : Charts.specs(s)) {
            chart(h, s, spec);
        }
        for (ResultFile f : s.files()) {
            if (s.files().size() > 1) {
                h.append("<h3>").append(esc(f.name())).append(".json</h3>\n");
            }
            table(h, s, f);
        }
    }

    private void chart(StringBuilder h, SuiteResults s, Charts.Spec spec) {
        try {
            String alt = esc(s.name() + ": " + spec.group() + " in " + spec.unit());
            boolean cut;
            if (pngCharts) {
                Charts.Written png = Charts.write(spec, s.rule(), machineLabel(), dir);
                h.append("<figure><img src=\"").append(esc(png.png().getFileName().toString())).append("\" width=\"")
                        .append(png.width()).append("\" alt=\"").append(alt).append("\">");
                cut = png.whiskersCut();
            } else {
                ChartSvg.Svg svg = Charts.svg(spec, s.rule(), machineLabel(), "c" + (++charts) + "-");
                // markup starts with "<svg"; the label makes the chart readable to screen readers
                h.append("<figure class=\"chart\"><svg role=\"img\" aria-label=\"").append(alt).append('"')
                        .append(svg.markup(), "<svg".length(), svg.markup().length());
                cut = svg.whiskersCut();
            }
            h.append("<figcaption>").append(esc(spec.group())).append(": ").append(spec.rows().size())
                    .append(" results in ").append(esc(spec.unit())).append(", bars = mean, whiskers = 99.9% error")
                    .append(pngCharts ? "" : "; hover over a bar for its value and error")
                    .append(cut ? " (some whiskers were longer than the bars allow and are cut; the table has the full error)" : "")
                    .append("</figcaption></figure>\n");
        } catch (IOException | RuntimeException | LinkageError | java.awt.AWTError e) {
            // A chart that cannot be drawn (odd data, or no fonts/AWT on a bare CI image) must not cost
            // the tables: say so and go on.
            h.append("<p class=\"muted\">Chart ").append(esc(spec.group())).append(" could not be drawn: ")
                    .append(esc(String.valueOf(e.getMessage()))).append("</p>\n");
        }
    }

    private void table(StringBuilder h, SuiteResults s, ResultFile f) {
        h.append("<table><thead><tr><th>Benchmark</th><th>Params</th><th>Mode</th><th>Threads</th><th>Score</th>")
                .append("<th>Error (±)</th><th>Unit</th><th>Ratio</th><th>vs reference</th></tr></thead><tbody>\n");
        for (JmhResult r : f.results()) {
            boolean crossCheck = CrossCheck.is(r);
            OptionalDouble ratio = crossCheck ? OptionalDouble.empty() : s.ratio(r);
            boolean ref = s.rule().isReference(r) && ratio.isPresent();
            Optional<String> note = cache.note(r);
            boolean notCold = CacheState.isColdRequested(r) && !cache.reallyCold(r);
            h.append("<tr").append(crossCheck ? " class=\"xcheck\"" : ref ? " class=\"ref\"" : notCold ? " class=\"warn\"" : "")
                    .append("><td>").append(esc(r.shortName())).append("</td><td>").append(esc(r.paramsLabel()));
            note.ifPresent(n -> h.append(" <span class=\"badge ").append(notCold ? "notcold" : "cold").append("\">")
                    .append(esc(n)).append("</span>"));
            s.rule().caveat(r).ifPresent(c -> h.append(" <span class=\"badge xbadge\">").append(esc(c)).append("</span>"));
            h.append(secondary(r));
            h.append("</td><td>").append(esc(r.mode())).append("</td><td class=\"num\">").append(r.threads())
                    .append("</td><td class=\"num\">").append(Units.format(r.primaryMetric().score()))
                    .append(percentiles(r))
                    .append("</td><td class=\"num\">")
                    .append(r.primaryMetric().hasError() ? Units.format(r.primaryMetric().scoreError()) : "")
                    .append("</td><td>").append(esc(r.primaryMetric().scoreUnit())).append("</td><td class=\"num\">")
                    .append(ratio.isPresent() ? String.format(Locale.ROOT, "%.3f", ratio.getAsDouble()) : "")
                    .append("</td><td class=\"nw\">");
            if (crossCheck) {
                h.append("not a result");
            } else if (ref) {
                h.append("reference");
            } else if (ratio.isPresent()) {
                String reading = ReferenceRule.reading(ratio.getAsDouble(), r.higherIsBetter());
                h.append("<span class=\"").append(reading.endsWith("faster") ? "faster" : reading.endsWith("slower") ? "slower" : "")
                        .append("\">").append(esc(reading)).append("</span>");
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    /**
     * Secondary metrics (bytes per key from a profiler, MB/s beside msgs/s) in a small line under the
     * parameters; the cold-cache counters are left out because the badge already says what they mean.
     */
    private static String secondary(JmhResult r) {
        String text = r.secondaryMetrics().entrySet().stream()
                .filter(e -> !e.getKey().toLowerCase(Locale.ROOT).startsWith("cold") && Double.isFinite(e.getValue().score()))
                // sample mode repeats its percentiles as secondary metrics; p50 and p99 are shown by the score
                .filter(e -> !PERCENTILE.matcher(e.getKey()).find())
                .map(e -> e.getKey() + " " + Units.format(e.getValue().score()) + " " + e.getValue().scoreUnit())
                .collect(Collectors.joining(" &middot; "));
        return text.isEmpty() ? "" : "<br><small class=\"muted\">" + esc(text).replace("&amp;middot;", "&middot;") + "</small>";
    }

    /** For sample-mode rows (latency distributions) the median and the 99th percentile under the mean. */
    private static String percentiles(JmhResult r) {
        Map<String, Double> p = r.primaryMetric().scorePercentiles();
        if (!"sample".equals(r.mode()) || !p.containsKey("50.0") || !p.containsKey("99.0")) {
            return "";
        }
        return "<br><small class=\"muted\">p50 " + Units.format(p.get("50.0")) + " &middot; p99 "
                + Units.format(p.get("99.0")) + "</small>";
    }

    /** Cold rows against their warm twins: the page says whether cold really was cold. */
    private void coldCheck(StringBuilder h, SuiteResults s) {
        h.append("<h3>Cold-cache check</h3>\n<p class=\"rule\">").append(esc(cache.explanation()))
                .append(". Each cold row is set against its warm twin (same benchmark and parameters, cache=warm).</p>\n");
        h.append("<table><thead><tr><th>Benchmark</th><th>Params</th><th>Cold</th><th>Warm</th><th>Unit</th>")
                .append("<th>Cold / warm time</th><th>Verdict</th></tr></thead><tbody>\n");
        for (JmhResult cold : s.pool()) {
            if (!CacheState.isColdRequested(cold)) {
                continue;
            }
            Optional<JmhResult> warm = warmTwin(cold, s.pool());
            OptionalDouble slowdown = warm.isEmpty() ? OptionalDouble.empty() : timeRatio(cold, warm.get());
            String verdict = coldVerdict(cold, warm, slowdown);
            h.append("<tr").append(cache.reallyCold(cold) && verdict.startsWith("cold confirmed") ? "" : " class=\"warn\"")
                    .append("><td>").append(esc(cold.shortName())).append("</td><td>").append(esc(cold.paramsLabel()))
                    .append("</td><td class=\"num\">").append(Units.format(cold.primaryMetric().score()))
                    .append("</td><td class=\"num\">").append(warm.map(w -> Units.format(Units.convert(
                            w.primaryMetric().score(), w.primaryMetric().scoreUnit(), cold.primaryMetric().scoreUnit())
                            .orElse(Double.NaN))).orElse(""))
                    .append("</td><td>").append(esc(cold.primaryMetric().scoreUnit())).append("</td><td class=\"num\">")
                    .append(slowdown.isPresent() ? String.format(Locale.ROOT, "%.2f", slowdown.getAsDouble()) : "")
                    .append("</td><td>").append(esc(verdict)).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    private String coldVerdict(JmhResult cold, Optional<JmhResult> warm, OptionalDouble slowdown) {
        if (!cache.reallyCold(cold)) {
            return "not cold: the run could not evict the page cache, so this is a warm figure";
        }
        if (slowdown.isEmpty()) {
            return "cold (evicted); no warm twin to compare with";
        }
        double times = slowdown.getAsDouble();
        if (times < 1.10) {
            return "suspicious: evicted, yet within 10% of warm; the reads may have been served from another cache"
                    + " (the host's, say)";
        }
        if (overlap(cold, warm.get())) {
            return String.format(Locale.ROOT, "evicted; %.1fx the warm time, but within the combined error: too noisy "
                    + "to confirm", times);
        }
        return String.format(Locale.ROOT, "cold confirmed: %.1fx the warm time", times);
    }

    /** Whether the 99.9% intervals of two rows overlap (no error estimate: they do not). */
    private static boolean overlap(JmhResult a, JmhResult b) {
        Metric ma = a.primaryMetric();
        Metric mb = b.primaryMetric();
        OptionalDouble bScore = Units.convert(mb.score(), mb.scoreUnit(), ma.scoreUnit());
        OptionalDouble bError = Units.convert(mb.hasError() ? mb.scoreError() : 0, mb.scoreUnit(), ma.scoreUnit());
        if (bScore.isEmpty() || bError.isEmpty()) {
            return false;
        }
        double errors = (ma.hasError() ? ma.scoreError() : 0) + bError.getAsDouble();
        return Math.abs(ma.score() - bScore.getAsDouble()) <= errors;
    }

    /** The same benchmark and parameters with a warm cache, if the run has it. */
    private static Optional<JmhResult> warmTwin(JmhResult cold, List<JmhResult> pool) {
        return pool.stream().filter(w -> w.benchmark().equals(cold.benchmark()) && w.mode().equals(cold.mode())
                && !CacheState.isColdRequested(w) && sameParamsExceptCache(w.params(), cold.params())).findFirst();
    }

    private static boolean sameParamsExceptCache(Map<String, String> a, Map<String, String> b) {
        return a.keySet().equals(b.keySet()) && a.entrySet().stream()
                .allMatch(e -> e.getKey().equalsIgnoreCase("cache") || e.getValue().equals(b.get(e.getKey())));
    }

    /** How many times longer a operation of {@code a} takes than one of {@code b}. */
    private static OptionalDouble timeRatio(JmhResult a, JmhResult b) {
        OptionalDouble sa = Units.secondsPerItem(a.primaryMetric().score(), a.primaryMetric().scoreUnit());
        OptionalDouble sb = Units.secondsPerItem(b.primaryMetric().score(), b.primaryMetric().scoreUnit());
        return sa.isPresent() && sb.isPresent() ? OptionalDouble.of(sa.getAsDouble() / sb.getAsDouble()) : OptionalDouble.empty();
    }

    private void seedSection(StringBuilder h) {
        List<SeedFigures.Outcome> outcomes = SeedFigures.compare(suites, cache);
        // A run without any reference experiment's work gets one line, not a table of "not in this run".
        if (outcomes.stream().allMatch(c -> c.rows().isEmpty())) {
            h.append("<h2 id=\"seeds\">Reference experiments</h2>\n<p class=\"muted\">No row of this run measures")
                    .append(" the work of a reference experiment (").append(outcomes.size())
                    .append(" of them are set against the store, files and shm suites).</p>\n");
            return;
        }
        h.append("<h2 id=\"seeds\">Reference experiments</h2>\n<p class=\"rule\">Each reference experiment's published figure and machine "
                + "beside our figure for the same work on this machine (converted to the experiment's unit). Different hardware "
                + "means the shape carries over, not the absolute numbers; ratios between two of an experiment's own figures "
                + "are the fairest comparison.</p>\n");
        h.append("<table class=\"seeds\"><thead><tr><th>Experiment</th><th>Published figure</th>")
                .append("<th>Ours (this machine)</th><th>Ours / published</th><th>Why they differ</th></tr></thead><tbody>\n");
        String group = null;
        for (SeedFigures.Outcome c : outcomes) {
            SeedFigures.Entry e = c.entry();
            // One header row per seed and machine: the machine is said once, not on every row.
            String g = e.seed() + "\u0000" + e.seedMachine();
            if (!g.equals(group)) {
                group = g;
                h.append("<tr class=\"group\"><th colspan=\"5\">").append(esc(SeedFigures.title(e.seed()))).append(" &middot; ")
                        .append(esc(e.seedMachine())).append("</th></tr>\n");
            }
            h.append("<tr data-seed=\"").append(esc(e.seed())).append("\"").append(c.ours().isEmpty() ? " class=\"warn\"" : "")
                    .append("><td>").append(esc(e.experiment())).append("</td><td class=\"num\">")
                    .append(Units.format(e.seedFigure())).append("<br><span class=\"muted\">").append(esc(e.unitLabel()))
                    .append("</span></td><td class=\"ours\">");
            if (c.ours().isPresent()) {
                h.append("<b>").append(Units.format(c.ours().getAsDouble())).append("</b> <span class=\"muted\">")
                        .append(esc(e.unitLabel())).append("</span><br><small class=\"muted\">")
                        .append(esc(c.rows().stream().map(r -> r.shortName() + (r.params().isEmpty() ? "" : " {" + r.paramsLabel() + "}"))
                                .collect(Collectors.joining(" / "))))
                        .append("</small>");
            } else {
                h.append("<span class=\"muted\">").append(esc(c.status())).append("</span>");
            }
            h.append("</td><td class=\"num\">");
            OptionalDouble ratio = c.ratio();
            if (ratio.isPresent()) {
                h.append(String.format(Locale.ROOT, "%.3g", ratio.getAsDouble()));
                if (!e.isRatio()) {
                    String reading = ReferenceRule.reading(ratio.getAsDouble(), e.higherIsBetter());
                    h.append("<br><span class=\"").append(reading.endsWith("faster") ? "faster" : "slower").append("\">")
                            .append(esc(reading)).append("</span>");
                }
            } else if (!e.comparable() && c.ours().isPresent()) {
                // Never our figure over the experiment's when they measure different work (a get over a put).
                h.append("\u2014<br><span class=\"muted\">not comparable</span>");
            }
            h.append("</td><td>").append(esc(e.why())).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }
}
