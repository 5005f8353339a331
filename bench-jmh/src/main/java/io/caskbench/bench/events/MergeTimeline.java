package io.caskbench.bench.events;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What a merge looks like in a JFR recording of one store: the slowest get and the slowest put in each
 * {@value #BUCKET_MILLIS} ms (from the slow-operation events, recorded at a threshold of zero), with the
 * merge's span shaded and each rollover marked, drawn as an SVG or PNG chart with XChart.
 */
public final class MergeTimeline {

    /** Width of a time bucket, in milliseconds. */
    static final int BUCKET_MILLIS = 20;

    private MergeTimeline() {
    }

    /**
     * The figures of the chart, times in seconds since the store's first event in the recording.
     *
     * @param gets bucket start to the slowest get in it, microseconds
     * @param puts bucket start to the slowest put in it, microseconds
     * @param merges each merge's start and end
     * @param rollovers when each rollover happened
     */
    record Timeline(TreeMap<Double, Double> gets, TreeMap<Double, Double> puts, List<double[]> merges,
                    List<Double> rollovers) {
    }

    /** Reads the events of the store in directory {@code store} from the recording {@code jfr}. */
    static Timeline read(Path jfr, String store) throws IOException {
        List<RecordedEvent> events = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().startsWith("io.caskbench.bitcask.") && store.equals(e.getString("store"))) {
                events.add(e);
            }
        }
        Instant origin = events.stream().map(RecordedEvent::getStartTime).min(Instant::compareTo).orElse(Instant.EPOCH);
        Timeline t = new Timeline(new TreeMap<>(), new TreeMap<>(), new ArrayList<>(), new ArrayList<>());
        for (RecordedEvent e : events) {
            double start = seconds(origin, e.getStartTime());
            double end = seconds(origin, e.getEndTime());
            switch (e.getEventType().getName()) {
                case "io.caskbench.bitcask.SlowGet" -> t.gets().merge(bucket(end), micros(e), Math::max);
                case "io.caskbench.bitcask.SlowPut" -> t.puts().merge(bucket(end), micros(e), Math::max);
                case "io.caskbench.bitcask.Merge" -> t.merges().add(new double[] {start, end});
                case "io.caskbench.bitcask.Rollover" -> t.rollovers().add(start);
                default -> {
                    // opens, forces and hints are not drawn
                }
            }
        }
        return t;
    }

    /** Writes {@code t} as a chart at {@code file}: PNG when its name ends in {@code .png}, else SVG. */
    static void write(Timeline t, String title, Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(1000).height(440).title(title)
                .xAxisTitle("seconds since the store's first event").yAxisTitle("slowest in " + BUCKET_MILLIS + " ms (µs, log)").build();
        chart.getStyler().setYAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideNE)
                .setChartBackgroundColor(Color.WHITE).setMarkerSize(4);
        double top = Math.max(max(t.gets()), max(t.puts())) * 2;
        double bottom = 1;
        for (int m = 0; m < t.merges().size(); m++) {
            double[] span = t.merges().get(m);
            XYSeries s = chart.addSeries(m == 0 ? "merge" : "merge " + (m + 1), new double[] {span[0], span[0], span[1], span[1]},
                    new double[] {bottom, top, top, bottom});
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
            s.setMarker(SeriesMarkers.NONE);
            s.setFillColor(new Color(0xD0, 0xD0, 0xD0, 0x80));
            s.setLineColor(Color.GRAY);
        }
        line(chart, "get", t.gets(), new Color(0x1F77B4));
        line(chart, "put", t.puts(), new Color(0xFF7F0E));
        if (!t.rollovers().isEmpty()) {
            double[] xs = t.rollovers().stream().mapToDouble(Double::doubleValue).toArray();
            double[] ys = new double[xs.length];
            Arrays.fill(ys, bottom * 1.5);
            XYSeries s = chart.addSeries("rollover", xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.TRIANGLE_UP);
            s.setMarkerColor(Color.DARK_GRAY);
        }
        if (file.toString().endsWith(".png")) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } else {
            VectorGraphicsEncoder.saveVectorGraphic(chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        }
    }

    private static void line(XYChart chart, String name, TreeMap<Double, Double> points, Color colour) {
        if (points.isEmpty()) {
            return;
        }
        double[] xs = points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
        double[] ys = points.values().stream().mapToDouble(Double::doubleValue).toArray();
        XYSeries s = chart.addSeries(name, xs, ys);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(colour);
    }

    private static double max(TreeMap<Double, Double> points) {
        return points.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
    }

    private static double seconds(Instant origin, Instant at) {
        return Duration.between(origin, at).toNanos() / 1e9;
    }

    private static double bucket(double seconds) {
        return Math.floor(seconds * 1000 / BUCKET_MILLIS) * BUCKET_MILLIS / 1000.0;
    }

    private static double micros(RecordedEvent e) {
        return Math.max(e.getDuration().toNanos() / 1000.0, 0.1);
    }
}
