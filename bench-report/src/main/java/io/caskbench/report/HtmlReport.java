package io.caskbench.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/** Builds the self-contained index.html of a results folder. */
final class HtmlReport {

    private final Path dir;
    private final Machine machine;
    private final List<SuiteResults> suites;
    private final CacheState cache;

    HtmlReport(Path dir, Machine machine, List<SuiteResults> suites, CacheState cache) {
        this.dir = dir;
        this.machine = machine;
        this.suites = suites;
        this.cache = cache;
    }

    String render() {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>caskbench results</title></head><body>\n");
        h.append("<h1>caskbench results</h1>\n");
        h.append("<p>").append(esc(machine == null ? "machine unknown" : machine.oneLine())).append("</p>\n");
        for (SuiteResults s : suites) {
            h.append("<h2>").append(esc(s.name())).append("</h2>\n<table>\n");
            for (JmhResult r : s.pool()) {
                OptionalDouble ratio = s.ratio(r);
                h.append("<tr><td>").append(esc(r.shortName())).append("</td><td>").append(esc(r.paramsLabel()))
                        .append("</td><td>").append(Units.format(r.primaryMetric().score())).append("</td><td>")
                        .append(ratio.isPresent() ? String.format(Locale.ROOT, "%.3f", ratio.getAsDouble()) : "")
                        .append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("</body></html>\n");
        return h.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
