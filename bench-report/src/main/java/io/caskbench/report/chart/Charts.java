package io.caskbench.report.chart;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Units;
import io.caskbench.report.rule.CrossCheck;
import io.caskbench.report.rule.ReferenceRule;
import io.caskbench.report.rule.SuiteResults;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Grouped bar charts with error bars, drawn by XChart: inline SVG for the page ({@link ChartSvg}), or
 * PNG files beside it for those who want images. One chart per benchmark class of a suite: bar groups are the workloads, bars in a group are the variants
 * (backend, reader, Java or C), so the reference stands next to what is compared with it.
 */
public final class Charts {

    /** How far above the tallest bar a linear axis reaches for whiskers before cutting them. */
    static final double WHISKER_ROOM = 1.5;

    /** Above this max/min ratio the y axis turns logarithmic so small bars stay visible. */
    static final double LOG_SCALE_ABOVE = 30;

    private static final int DPI = 144;

    static {
        // Rendering needs no display; without this a server without X fails inside AWT.
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    /**
     * One chart's data: its title, unit and the rows it plots.
     *
     * @param suite suite name
     * @param group benchmark class (without package and "Benchmark")
     * @param unit the unit every row was converted to
     * @param rows the rows, in file order
     * @param merged whether this chart gathers small benchmark classes (one bar per row, coloured by class)
     */
    public record Spec(String suite, String group, String unit, List<JmhResult> rows, boolean merged) {

        /** File name of the PNG, derived from suite and group so re-renders overwrite it. */
        public String fileName() {
            return ("chart-" + suite + "-" + group).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "_")
                    .replaceAll("_+$", "") + ".png";
        }
    }

    /**
     * Splits a suite into one spec per benchmark class; rows whose unit does not convert to the class's
     * first unit (a secondary kind of measurement) get a chart of their own.
     */
    public static List<Spec> specs(SuiteResults suite) {
        Map<String, String> firstUnit = new LinkedHashMap<>();
        Map<String, String> chartUnit = new LinkedHashMap<>();
        Map<String, List<JmhResult>> rows = new LinkedHashMap<>();
        for (JmhResult r : suite.pool()) {
            // A cross-check is not a result: the table shows it, marked; a chart would set it among results.
            if (!Double.isFinite(r.primaryMetric().score()) || CrossCheck.is(r)) {
                continue;
            }
            String group = suite.rule().group(r);
            String unit = r.primaryMetric().scoreUnit();
            String base = firstUnit.computeIfAbsent(group, g -> unit);
            boolean joins = Units.convert(1, unit, base).isPresent();
            String key = joins ? group : group + " (" + unit + ")";
            chartUnit.putIfAbsent(key, joins ? base : unit);
            rows.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        List<Spec> specs = new ArrayList<>();
        rows.forEach((key, list) -> specs.add(new Spec(suite.name(), key, chartUnit.get(key), list, false)));
        return mergeSmall(suite.name(), specs);
    }

    /** Classes with fewer bars than this share one chart per unit instead of a chart each. */
    static final int SMALL_CHART = 3;

    /**
     * Gathers charts of one or two bars (single file operations, say) into one chart per unit, so the
     * page does not fill with near-empty charts. A lone small chart stays as it is.
     */
    private static List<Spec> mergeSmall(String suite, List<Spec> specs) {
        List<Spec> out = new ArrayList<>();
        Map<String, List<Spec>> small = new LinkedHashMap<>();
        for (Spec s : specs) {
            if (s.rows().size() >= SMALL_CHART) {
                out.add(s);
                continue;
            }
            String bucket = small.keySet().stream().filter(u -> Units.convert(1, s.unit(), u).isPresent())
                    .findFirst().orElse(s.unit());
            small.computeIfAbsent(bucket, u -> new ArrayList<>()).add(s);
        }
        small.forEach((unit, list) -> {
            if (list.size() == 1) {
                out.add(list.get(0));
            } else {
                List<JmhResult> rows = list.stream().flatMap(s -> s.rows().stream()).toList();
                String name = small.size() == 1 ? "other" : "other (" + unit + ")";
                out.add(new Spec(suite, name, unit, rows, true));
            }
        });
        return out;
    }

    /**
     * Draws one spec and writes it as a PNG into {@code dir}.
     *
     * @param machineLabel who measured it and when, printed on the chart so a copied PNG stays labelled
     * @return the PNG path and the chart's width in CSS pixels (the PNG has twice as many, for sharp text)
     */
    public static Written write(Spec spec, ReferenceRule rule, String machineLabel, Path dir) throws IOException {
        Drawn drawn = draw(spec, rule, machineLabel);
        CategoryChart chart = drawn.chart();
        Path file = dir.resolve(spec.fileName());
        BitmapEncoder.saveBitmapWithDPI(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG, DPI);
        return new Written(file, chart.getWidth(), drawn.whiskersCut());
    }

    /**
     * A chart written to disk.
     *
     * @param png the file
     * @param width display width in CSS pixels
     * @param whiskersCut whether some error bars were longer than the axis and were cut at its edge
     */
    public record Written(Path png, int width, boolean whiskersCut) {
    }

    /**
     * Draws one spec as inline SVG markup, each bar carrying a tooltip with its value and error.
     *
     * @param machineLabel who measured it and when, printed on the chart so a copied chart stays labelled
     * @param idPrefix prefix for the SVG's element ids, unique per chart on a page
     */
    public static ChartSvg.Svg svg(Spec spec, ReferenceRule rule, String machineLabel, String idPrefix) {
        Drawn drawn = draw(spec, rule, machineLabel);
        return ChartSvg.render(drawn.chart(), drawn.bars(), idPrefix, drawn.whiskersCut());
    }

    /**
     * One bar as painted: its series and the tooltip that names it with the value and error.
     *
     * @param series the series (variant) it belongs to
     * @param tooltip category, series, value and error in the chart's unit
     */
    record Bar(String series, String tooltip) {
    }

    /**
     * A chart, whether any of its whiskers had to be cut to stay inside the plot, and its bars in the
     * order XChart paints them (series by series, each in category order, gaps skipped).
     */
    private record Drawn(CategoryChart chart, boolean whiskersCut, List<Bar> bars) {
    }

    /** Builds the XChart chart for a spec (public for tests and for embedding elsewhere). */
    public static CategoryChart build(Spec spec, ReferenceRule rule, String machineLabel) {
        return draw(spec, rule, machineLabel).chart();
    }

    private static Drawn draw(Spec spec, ReferenceRule rule, String machineLabel) {
        Map<String, String> constant = spec.merged() ? Map.of() : constantParams(spec.rows(), rule);
        Function<JmhResult, String> categoryOf = spec.merged()
                ? r -> rule.group(r) + "." + r.methodName() + (r.params().isEmpty() ? "" : " " + r.paramsLabel().replace(", ", " "))
                : r -> shortCategory(r, rule, constant.keySet());
        Function<JmhResult, String> seriesOf = spec.merged() ? rule::group : rule::variant;
        List<String> categories = new ArrayList<>();
        List<String> series = new ArrayList<>();
        Map<String, Integer> order = new LinkedHashMap<>();
        for (JmhResult r : spec.rows()) {
            String c = categoryOf.apply(r);
            if (!categories.contains(c)) {
                categories.add(c);
                order.put(c, rule.categoryOrder(r));
            }
            if (!series.contains(seriesOf.apply(r))) {
                series.add(seriesOf.apply(r));
            }
        }
        categories.sort(java.util.Comparator.comparingInt(order::get));
        if (!spec.merged()) {
            Map<String, Integer> seriesOrder = new LinkedHashMap<>();
            spec.rows().forEach(r -> seriesOrder.putIfAbsent(seriesOf.apply(r), rule.variantOrder(r)));
            series.sort(java.util.Comparator.comparingInt(seriesOrder::get));
        }
        double min = Double.MAX_VALUE;
        double max = 0;
        Map<String, Double[]> values = new LinkedHashMap<>();
        Map<String, Double[]> errors = new LinkedHashMap<>();
        for (String s : series) {
            values.put(s, new Double[categories.size()]);
            errors.put(s, new Double[categories.size()]);
        }
        for (JmhResult r : spec.rows()) {
            int i = categories.indexOf(categoryOf.apply(r));
            String unit = r.primaryMetric().scoreUnit();
            double v = Units.convert(r.primaryMetric().score(), unit, spec.unit()).orElse(Double.NaN);
            // NaN: no error estimate (drawn without whisker, and the tooltip says so)
            double e = r.primaryMetric().hasError()
                    ? Units.convert(r.primaryMetric().scoreError(), unit, spec.unit()).orElse(Double.NaN) : Double.NaN;
            if (v > 0) {
                values.get(seriesOf.apply(r))[i] = v;
                errors.get(seriesOf.apply(r))[i] = e;
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        boolean log = max > 0 && min > 0 && max / min > LOG_SCALE_ABOVE;
        int barsPerGroup = spec.merged() ? 1 : Math.max(1, series.size());
        boolean higherIsBetter = Units.isRate(spec.unit());
        String constantText = constant.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
        String title = spec.suite() + ": " + spec.group() + (constantText.isEmpty() ? "" : "  (" + constantText + ")");
        // XChart centres the title over the plot, left of the legend; a chart narrower than the title clips it.
        int width = Math.max(Math.max(760, 320 + title.length() * 9),
                Math.min(1500, 160 + categories.size() * barsPerGroup * 26));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(460)
                .title(title)
                .xAxisTitle(machineLabel)
                .yAxisTitle(spec.unit() + (higherIsBetter ? ", higher is better" : Units.isTimePer(spec.unit())
                        ? ", lower is better" : "") + (log ? " (log scale)" : ""))
                .build();
        int labelChars = categories.stream().mapToInt(String::length).max().orElse(0);
        double logBase = 0;
        double axisTop = Double.POSITIVE_INFINITY;
        boolean cut = false;
        style(chart, labelChars * 7 > (width - 300) / Math.max(1, categories.size()));
        // In a merged chart each bar group holds one row: series drawn on top of each other keep bars wide.
        chart.getStyler().setOverlapped(spec.merged());
        if (log) {
            // XChart 3.8.8's own log axis draws error bars as log10(error) and ignores custom tick labels,
            // so wide ranges are plotted as log10(value) on a linear axis with labels turned back into values.
            // Bars grow from zero, so the log values are shifted to start at the lowest decade shown.
            double base = Math.floor(Math.log10(min) - 0.15);
            logBase = base;
            chart.getStyler().setYAxisMin(0.0);
            axisTop = Math.ceil(Math.log10(max) + 0.05) - base;
            chart.getStyler().setYAxisMax(axisTop);
            chart.getStyler().setyAxisTickLabelsFormattingFunction(t -> shortNumber(Math.pow(10, t + base)));
        } else {
            chart.getStyler().setyAxisTickLabelsFormattingFunction(Charts::shortNumber);
            // Noisy runs have whiskers far above every bar (and below zero); the axis follows the bars and
            // the whiskers are cut at its edges, so the bars stay readable. The tables give the full error.
            chart.getStyler().setYAxisMin(0.0);
            double topWhisker = topWhisker(values, errors);
            if (topWhisker > WHISKER_ROOM * max) {
                axisTop = WHISKER_ROOM * max;
                chart.getStyler().setYAxisMax(axisTop);
            }
        }
        List<Bar> bars = new ArrayList<>();
        for (String s : series) {
            List<Double> ys = new ArrayList<>();
            List<Double> es = new ArrayList<>();
            Double[] vs = values.get(s);
            Double[] ers = errors.get(s);
            for (int i = 0; i < categories.size(); i++) {
                Double v = vs[i];
                double err = ers[i] == null || !Double.isFinite(ers[i]) ? 0 : ers[i];
                if (v == null) {
                    // A variant that did not run this workload leaves a gap. NaN, not null: XChart 3.8.8
                    // skips NaN bars but fails on null when the series has error bars.
                    ys.add(Double.NaN);
                    es.add(0.0);
                } else {
                    // On the log scale, the first-order error: d(log10 v) = dv / (v ln 10); symmetric is
                    // close enough for the few-percent errors a benchmark should have.
                    double y = log ? Math.log10(v) - logBase : v;
                    double w = log ? err / (v * Math.log(10)) : err;
                    // XChart draws whiskers past the plot's edges; cut them (symmetrically) at the axis.
                    double fit = Math.min(w, Math.min(y, axisTop - y));
                    cut |= fit < w;
                    ys.add(y);
                    es.add(Math.max(0, fit));
                    bars.add(new Bar(s, tooltip(categories.get(i), spec.merged() ? "" : s, v, ers[i], spec.unit())));
                }
            }
            chart.addSeries(s, categories, ys, es);
        }
        return new Drawn(chart, cut, bars);
    }

    /** "get keyCount=1000000 · LMDB: 613,819 ± 12,003 ops/s", in real values whatever the axis scale. */
    private static String tooltip(String category, String series, double value, Double error, String unit) {
        String what = series.isEmpty() || series.equals(category) ? category : category + " \u00b7 " + series;
        String err = error != null && Double.isFinite(error) ? " \u00b1 " + Units.format(error) : " (no error estimate)";
        return what + ": " + Units.format(value) + err + " " + unit;
    }

    private static double topWhisker(Map<String, Double[]> values, Map<String, Double[]> errors) {
        double top = 0;
        for (Map.Entry<String, Double[]> e : values.entrySet()) {
            Double[] err = errors.get(e.getKey());
            for (int i = 0; i < e.getValue().length; i++) {
                if (e.getValue()[i] != null) {
                    top = Math.max(top, e.getValue()[i] + (err[i] == null || !Double.isFinite(err[i]) ? 0 : err[i]));
                }
            }
        }
        return top;
    }

    private static void style(CategoryChart chart, boolean crowded) {
        var st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(0xE0E0E0));
        st.setPlotBorderVisible(false);
        st.setLegendBorderColor(Color.WHITE);
        st.setErrorBarsColor(Color.BLACK);
        st.setErrorBarsColorSeriesColor(false);
        st.setXAxisLabelRotation(crowded ? 25 : 0);
        st.setAvailableSpaceFill(0.8);
        st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    }

    /** Category parameters with one value across all rows: named once in the title instead of on every bar group. */
    static Map<String, String> constantParams(List<JmhResult> rows, ReferenceRule rule) {
        Map<String, String> constant = new LinkedHashMap<>();
        if (rows.size() < 2) {
            return constant;
        }
        for (Map.Entry<String, String> e : rule.categoryParams(rows.get(0)).entrySet()) {
            if (rows.stream().allMatch(r -> e.getValue().equals(rule.categoryParams(r).get(e.getKey())))) {
                constant.put(e.getKey(), e.getValue());
            }
        }
        return constant;
    }

    private static String shortCategory(JmhResult r, ReferenceRule rule, Set<String> constant) {
        StringBuilder sb = new StringBuilder(rule.categoryPrefix(r));
        rule.categoryParams(r).forEach((k, v) -> {
            if (!constant.contains(k)) {
                sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v);
            }
        });
        return sb.length() == 0 ? rule.group(r) : sb.toString();
    }

    /** Axis labels such as 2.5M, 340k, 0.25: three significant digits and a metric suffix. */
    public static String shortNumber(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        double a = Math.abs(v);
        String[] suffix = {"", "k", "M", "G", "T"};
        int i = 0;
        while (a >= 1000 && i < suffix.length - 1) {
            a /= 1000;
            v /= 1000;
            i++;
        }
        if (v == 0) {
            return "0";
        }
        String digits = new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
        return digits + suffix[i];
    }
}
