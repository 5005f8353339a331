package io.caskbench.report.chart;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.PathIterator;
import java.awt.geom.Rectangle2D;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Turns an XChart bar chart into SVG markup that can sit inside an HTML page, with a tooltip on each
 * bar.
 *
 * <p>XChart paints through VectorGraphics2D, which writes SVG but knows nothing of bars. So the chart
 * is painted into a {@link VectorGraphics2D} that also notes every filled shape and its colour. XChart
 * fills the bars series by series, each in category order, before it paints the legend; the n-th
 * fill in a series' colour is therefore its n-th bar. Over each bar goes a transparent rectangle
 * whose {@code <title>} the browser shows on hover: no script needed.
 */
public final class ChartSvg {

    private static final Pattern ID = Pattern.compile("\\bid=\"([^\"]+)\"");
    private static final Pattern PATH_DATA = Pattern.compile(" d=\"([^\"]*)\"");
    private static final Pattern DECIMAL = Pattern.compile("-?\\d+\\.\\d+");
    /** Namespace declarations: an SVG inside HTML needs none, and the page then names no outside address. */
    private static final Pattern XMLNS = Pattern.compile(" xmlns(:\\w+)?=\"[^\"]*\"");

    private ChartSvg() {
    }

    /**
     * A chart as SVG.
     *
     * @param markup the {@code <svg>} element, without XML prolog or doctype
     * @param width width in CSS pixels
     * @param height height in CSS pixels
     * @param tooltips how many bars got a tooltip
     * @param whiskersCut whether some error bars were longer than the axis and were cut at its edge
     */
    public record Svg(String markup, int width, int height, int tooltips, boolean whiskersCut) {

        /**
         * Writes the chart as a file of its own, creating the folder: unlike a chart inline in a page, a
         * file needs the SVG namespace to be drawn at all.
         */
        public void writeTo(Path file) {
            String standalone = markup.replaceFirst("^<svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"") + "\n";
            try {
                Path dir = file.toAbsolutePath().getParent();
                if (dir != null) {
                    Files.createDirectories(dir);
                }
                Files.writeString(file, standalone, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Paints {@code chart} as SVG and lays a tooltip over each of {@code bars}.
     *
     * @param bars the chart's bars in XChart's paint order, with their tooltip text
     * @param idPrefix prefixed to every element id, so several charts can share a page
     * @param whiskersCut passed through to the result
     */
    static Svg render(CategoryChart chart, List<Charts.Bar> bars, String idPrefix, boolean whiskersCut) {
        // XChart gives each series its colour while painting, so the colours are read after.
        return render(chart, () -> fillColours(chart), bars, idPrefix, whiskersCut);
    }

    /**
     * Paints any XChart chart as SVG and lays a tooltip over each of {@code marks}, a bar or a line's
     * marker: the n-th shape filled in a series' colour is that series' n-th mark.
     *
     * @param colours each series' fill colour, asked for once the chart is painted
     * @param marks the chart's filled marks in XChart's paint order, with their tooltip text
     * @param idPrefix prefixed to every element id, so several charts can share a page
     * @param whiskersCut passed through to the result
     */
    static Svg render(Chart<?, ?> chart, Supplier<Map<String, Color>> colours, List<Charts.Bar> marks,
            String idPrefix, boolean whiskersCut) {
        int w = chart.getWidth();
        int h = chart.getHeight();
        FillRecorder g = new FillRecorder();
        chart.paint(g, w, h);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, w, h)).writeTo(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String svg = bytes.toString(StandardCharsets.UTF_8);
        int start = svg.indexOf("<svg");
        int end = svg.lastIndexOf("</svg>");
        if (start < 0 || end < start) {
            throw new IllegalStateException("VectorGraphics2D wrote no <svg> element");
        }
        StringBuilder tips = new StringBuilder("<g class=\"tips\">");
        int tooltips = 0;
        List<Rectangle2D> places = barBounds(colours.get(), marks, g.fills);
        for (int i = 0; i < places.size(); i++) {
            Rectangle2D r = places.get(i);
            if (r == null) {
                continue;
            }
            // Very short bars get a few pixels of height, so the pointer can find them.
            double height = Math.max(4, r.getHeight());
            double y = r.getMaxY() - height;
            tips.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                    + "fill=\"#000\" fill-opacity=\"0\"><title>", r.getX(), y, r.getWidth(), height))
                    .append(esc(marks.get(i).tooltip())).append("</title></rect>");
            tooltips++;
        }
        tips.append("</g>");
        String markup = compact(prefixIds(svg.substring(start, end), idPrefix)) + tips + "</svg>";
        return new Svg(markup, w, h, tooltips, whiskersCut);
    }

    /** The fill colour of each series of a painted bar chart. */
    private static Map<String, Color> fillColours(CategoryChart chart) {
        Map<String, Color> colours = new HashMap<>();
        for (Map.Entry<String, CategorySeries> e : chart.getSeriesMap().entrySet()) {
            colours.put(e.getKey(), e.getValue().getFillColor());
        }
        return colours;
    }

    /**
     * The painted rectangle of each bar, in the order of {@code bars}; null where no fill could be
     * matched (the bar then simply has no tooltip).
     */
    private static List<Rectangle2D> barBounds(Map<String, Color> colours, List<Charts.Bar> bars, List<Fill> fills) {
        // Series that share a colour (more series than the palette) are painted one after the other,
        // so one cursor per colour walks through their fills in order.
        Map<Color, Integer> cursor = new HashMap<>();
        List<Rectangle2D> out = new ArrayList<>();
        for (Charts.Bar bar : bars) {
            Color colour = colours.get(bar.series());
            int i = cursor.getOrDefault(colour, 0);
            while (i < fills.size() && !fills.get(i).colour().equals(colour)) {
                i++;
            }
            if (colour == null || i >= fills.size()) {
                out.add(null);
                continue;
            }
            out.add(fills.get(i).bounds());
            cursor.put(colour, i + 1);
        }
        return out;
    }

    /**
     * Makes the markup several times smaller without a visible change. XChart draws every letter as an
     * outline, which VectorGraphics2D writes as absolute points with up to 14 decimals: {@link PathData}
     * rewrites them; other numbers keep a hundredth of a pixel.
     */
    static String compact(String svg) {
        String s = XMLNS.matcher(svg.replaceAll(">\\s+<", "><")).replaceAll("");
        Matcher path = PATH_DATA.matcher(s);
        StringBuilder out = new StringBuilder(s.length() / 2);
        while (path.find()) {
            path.appendReplacement(out, Matcher.quoteReplacement(" d=\"" + PathData.compact(path.group(1)) + "\""));
        }
        path.appendTail(out);
        return roundAll(out.toString(), 2);
    }

    /** Every decimal number in {@code text} rounded to {@code places} decimals, trailing zeros dropped. */
    private static String roundAll(String text, int places) {
        Matcher m = DECIMAL.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String n = m.group();
            String rounded = n.length() - n.indexOf('.') - 1 <= places ? n
                    : new BigDecimal(n).setScale(places, RoundingMode.HALF_UP).stripTrailingZeros()
                            .toPlainString();
            m.appendReplacement(out, rounded.equals("-0") ? "0" : rounded);
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Element ids are global in an HTML page: {@code clip1} of the second chart must not be the first's. */
    static String prefixIds(String svg, String prefix) {
        Matcher m = ID.matcher(svg);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        String out = ID.matcher(svg).replaceAll("id=\"" + Matcher.quoteReplacement(prefix) + "$1\"");
        for (String id : ids) {
            out = out.replace("url(#" + id + ")", "url(#" + prefix + id + ")")
                    .replace("href=\"#" + id + "\"", "href=\"#" + prefix + id + "\"");
        }
        return out;
    }

    /** A filled shape: its colour and where it landed on the page. */
    private record Fill(Color colour, Rectangle2D bounds) {
    }

    /**
     * VectorGraphics2D that also notes its fills. {@code create()} clones the object, so graphics
     * derived from it share the list.
     */
    private static final class FillRecorder extends VectorGraphics2D {

        private final List<Fill> fills = new ArrayList<>();

        @Override
        public void fill(Shape s) {
            // XChart paints a gap in a series (a NaN value) as a bar and whisker with NaN corners: nothing
            // to see or to match, and not valid SVG.
            if (finite(s)) {
                fills.add(new Fill(getColor(), getTransform().createTransformedShape(s).getBounds2D()));
                super.fill(s);
            }
        }

        @Override
        public void draw(Shape s) {
            if (finite(s)) {
                super.draw(s);
            }
        }

        /**
         * Whether every point of {@code s} is a number. Its bounds cannot tell: since JDK 19 they leave
         * NaN points out.
         */
        private static boolean finite(Shape s) {
            double[] c = new double[6];
            for (PathIterator it = s.getPathIterator(null); !it.isDone(); it.next()) {
                int n = switch (it.currentSegment(c)) {
                    case PathIterator.SEG_MOVETO, PathIterator.SEG_LINETO -> 2;
                    case PathIterator.SEG_QUADTO -> 4;
                    case PathIterator.SEG_CUBICTO -> 6;
                    default -> 0;
                };
                for (int i = 0; i < n; i++) {
                    if (!Double.isFinite(c[i])) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    /** Text escaped for an SVG or HTML element or attribute; null becomes the empty string. */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
