package io.caskbench.report.chart;

import io.caskbench.report.input.OverwriteSeries;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The overwrite charts of one store: a line chart per figure over time, a line per configuration the store
 * ran (value size, skew, rate), time in seconds across; {@link #panels} stacks throughput, space
 * amplification and put p99 into one SVG, the chart {@code OverwriteTables} publishes per store.
 */
public final class OverwriteChart {

    private static final Color[] COLOURS = {new Color(0x1F77B4), new Color(0xFF7F0E), new Color(0x2CA02C),
        new Color(0xD62728), new Color(0x9467BD), new Color(0x8C564B), new Color(0xE377C2), new Color(0x7F7F7F)};
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 300;
    /** The y attribute of a part's root element. */
    private static final Pattern ORIGIN_Y = Pattern.compile(" y=\"[^\"]*\"");

    /** One figure the charts plot: its axis title and how it is read from a point. */
    enum Figure {
        /** Operations per second in each interval. */
        THROUGHPUT("ops/s", OverwriteSeries.Point::opsPerSecond),
        /** Disk bytes over live bytes at each interval's end. */
        SPACE_AMP("disk / live bytes", OverwriteSeries.Point::spaceAmp),
        /** Put p99 in each interval, milliseconds. */
        PUT_P99("put p99, ms", p -> p.putP99() / 1_000);

        final String axis;
        final ToDoubleFunction<OverwriteSeries.Point> value;

        Figure(String axis, ToDoubleFunction<OverwriteSeries.Point> value) {
            this.axis = axis;
            this.value = value;
        }
    }

    private OverwriteChart() {
    }

    /**
     * Draws {@code figure} of every series (all of one store) as SVG.
     *
     * @param machine who measured it and when, printed under the plot
     * @param idPrefix prefix for the SVG's element ids
     */
    static ChartSvg.Svg svg(String title, Figure figure, List<OverwriteSeries> series, String machine,
            String idPrefix) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("seconds;  " + machine).yAxisTitle(figure.axis).build();
        style(chart);
        Map<String, Color> colours = new HashMap<>();
        for (int i = 0; i < series.size(); i++) {
            OverwriteSeries s = series.get(i);
            List<OverwriteSeries.Point> points = s.points().stream()
                    .filter(p -> Double.isFinite(figure.value.applyAsDouble(p))).toList();
            if (points.isEmpty()) {
                continue;
            }
            double[] xs = points.stream().mapToDouble(OverwriteSeries.Point::second).toArray();
            double[] ys = points.stream().mapToDouble(figure.value).toArray();
            Color colour = COLOURS[i % COLOURS.length];
            XYSeries line = chart.addSeries(s.label(), xs, ys);
            line.setLineColor(colour);
            line.setMarker(SeriesMarkers.NONE);
            line.setLineWidth(1.5f);
            colours.put(s.label(), colour);
        }
        return ChartSvg.render(chart, () -> colours, List.of(), idPrefix, false);
    }

    /**
     * Every {@link Figure} of {@code series} (all of one store), stacked top to bottom in one SVG.
     *
     * @param title the store and the run, above each panel's figure
     * @param idPrefix prefix for the SVG's element ids; each panel adds its figure's name
     */
    public static ChartSvg.Svg panels(String title, List<OverwriteSeries> series, String machine, String idPrefix) {
        List<ChartSvg.Svg> panels = new ArrayList<>();
        for (Figure f : Figure.values()) {
            String id = idPrefix + f.name().toLowerCase(Locale.ROOT) + "-";
            panels.add(svg(title + ": " + f.axis, f, series, machine, id));
        }
        return stack(panels);
    }

    /** {@code parts} one under the other in an SVG of their widest width and summed height. */
    static ChartSvg.Svg stack(List<ChartSvg.Svg> parts) {
        StringBuilder body = new StringBuilder();
        int width = 0;
        int y = 0;
        int tooltips = 0;
        boolean cut = false;
        for (ChartSvg.Svg part : parts) {
            String markup = part.markup();
            int tagEnd = markup.indexOf('>');
            // Each part is an <svg> element placed by its own x and y: move it down by the parts above it.
            String tag = ORIGIN_Y.matcher(markup.substring(0, tagEnd)).replaceFirst(" y=\"" + y + "px\"");
            body.append(tag).append(markup, tagEnd, markup.length());
            width = Math.max(width, part.width());
            y += part.height();
            tooltips += part.tooltips();
            cut |= part.whiskersCut();
        }
        String markup = "<svg height=\"" + y + "px\" version=\"1.1\" viewBox=\"0 0 " + width + " " + y + "\" width=\""
                + width + "px\">" + body + "</svg>";
        return new ChartSvg.Svg(markup, width, y, tooltips, cut);
    }

    private static void style(XYChart chart) {
        ScaleChart.style(chart);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(t -> Charts.shortNumber(t));
        chart.getStyler().setyAxisTickLabelsFormattingFunction(t -> Charts.shortNumber(t));
    }
}
