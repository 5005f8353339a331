package io.caskbench.report.chart;

import io.caskbench.report.input.Units;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line chart of throughput against key count, both on log scales: one line per store, a marker at each key
 * count it ran at, and a tooltip on each marker. {@code ScaleTables} writes one per operation into the docs.
 *
 * <p>XChart 3.8.8's own log axes ignore custom tick labels (they print {@code 1E6}), so, as {@link Charts}
 * does for its bars, the chart plots {@code log10} of both values on linear axes and turns the tick labels
 * back into key counts and ops/s.
 */
public final class ScaleChart {

    /** Series colours, one per store: distinct from each other and from the grid and the background. */
    private static final Color[] COLOURS = {new Color(0x1F77B4), new Color(0xFF7F0E), new Color(0x2CA02C),
        new Color(0xD62728), new Color(0x9467BD), new Color(0x8C564B), new Color(0xE377C2), new Color(0x7F7F7F),
        new Color(0xBCBD22), new Color(0x17BECF)};

    /** Filled markers only: a tooltip finds a marker by the shape filled in its series' colour. */
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN};

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 480;
    /** Roughly the plot's width: the chart's less the y axis and the legend beside the plot. */
    private static final int PLOT_WIDTH = WIDTH - 280;

    private ScaleChart() {
    }

    /**
     * One store's line.
     *
     * @param label the legend's name for it
     * @param points key count to ops/s, one entry per key count it ran at
     */
    public record Line(String label, SortedMap<Long, Double> points) {
    }

    /**
     * Draws the lines as SVG.
     *
     * @param title the chart's title
     * @param operation what a point measures, for its tooltip ({@code get}, say)
     * @param machine who measured it and when, printed under the plot so a copied chart stays labelled
     * @param idPrefix prefix for the SVG's element ids
     */
    public static ChartSvg.Svg svg(String title, String operation, List<Line> lines, String machine, String idPrefix) {
        List<Line> drawn = lines.stream().filter(l -> l.points().values().stream().anyMatch(v -> v > 0)).toList();
        double minKeys = drawn.stream().mapToDouble(l -> l.points().firstKey()).min().orElse(1);
        double maxKeys = drawn.stream().mapToDouble(l -> l.points().lastKey()).max().orElse(10);
        double low = Math.log10(minKeys);
        double high = Math.log10(maxKeys);
        // Some room left and right of the outer markers; one key count alone gets a decade around it.
        double pad = high > low ? (high - low) * 0.06 : 0.5;
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("keys (log scale);  " + machine).yAxisTitle("ops/s, higher is better (log scale)")
                .build();
        style(chart);
        chart.getStyler().setXAxisMin(low - pad);
        chart.getStyler().setXAxisMax(high + pad);
        // A tick a decade apart where the keys span a decade or more: labels 100k, 1M, 10M and nothing between.
        double span = high - low + 2 * pad;
        if (high - low >= 1) {
            chart.getStyler().setXAxisTickMarkSpacingHint((int) Math.round(PLOT_WIDTH / span));
        }
        chart.getStyler().setxAxisTickLabelsFormattingFunction(t -> Charts.shortNumber(Math.pow(10, t)));
        chart.getStyler().setyAxisTickLabelsFormattingFunction(t -> Charts.shortNumber(Math.pow(10, t)));
        Map<String, Color> colours = new HashMap<>();
        List<Charts.Bar> marks = new ArrayList<>();
        for (int i = 0; i < drawn.size(); i++) {
            Line line = drawn.get(i);
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            line.points().forEach((keys, value) -> {
                if (value > 0) {
                    xs.add(Math.log10(keys));
                    ys.add(Math.log10(value));
                    marks.add(new Charts.Bar(line.label(), operation + ", " + Charts.shortNumber(keys) + " keys \u00b7 "
                            + line.label() + ": " + Units.format(value) + " ops/s"));
                }
            });
            Color colour = COLOURS[i % COLOURS.length];
            XYSeries series = chart.addSeries(line.label(), xs, ys);
            series.setLineColor(colour);
            series.setMarkerColor(colour);
            series.setFillColor(colour);
            series.setMarker(MARKERS[i % MARKERS.length]);
            series.setLineWidth(2f);
            colours.put(line.label(), colour);
        }
        return ChartSvg.render(chart, () -> colours, marks, idPrefix, false);
    }

    /** The look the line charts share: white, light grid, legend right of the plot. */
    static void style(XYChart chart) {
        var st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(0xE0E0E0));
        st.setPlotGridLinesStroke(new BasicStroke(1f));
        st.setPlotBorderVisible(false);
        st.setLegendBorderColor(Color.WHITE);
        st.setMarkerSize(8);
        st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    }
}
