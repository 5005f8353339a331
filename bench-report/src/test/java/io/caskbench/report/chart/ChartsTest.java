package io.caskbench.report.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.rule.SuiteResults;
import io.caskbench.report.rule.Suites;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

class ChartsTest {

    @Test
    void narrowRangesUseALinearAxisAndPutConstantParamsInTheTitle() {
        CategoryChart c = chart(List.of(
                row("MAPPED", "get", "100", 2.0e6), row("FILE_CHANNEL", "get", "100", 1.0e6),
                row("MAPPED", "put", "100", 1.5e6), row("FILE_CHANNEL", "put", "100", 0.6e6)));
        assertThat(c.getTitle()).isEqualTo("store: BitCaskSingleThread  (valueSize=100)");
        assertThat(c.getYAxisTitle()).isEqualTo("ops/s, higher is better");
        assertThat(c.getSeriesMap()).containsOnlyKeys("MAPPED", "FILE_CHANNEL");
        CategorySeries mapped = c.getSeriesMap().get("MAPPED");
        assertThat(new ArrayList<Object>(mapped.getXData())).containsExactly("get", "put");
        assertThat(new ArrayList<Number>(mapped.getYData())).containsExactly(2.0e6, 1.5e6);
        assertThat(new ArrayList<Number>(mapped.getExtraValues())).containsExactly(2.0e4, 1.5e4);
    }

    @Test
    void wideRangesArePlottedAsShiftedLogValuesWithTheirErrors() {
        CategoryChart c = chart(List.of(row("MAPPED", "get", "100", 2.0e6), row("FILE_CHANNEL", "get", "100", 1.0e4)));
        assertThat(c.getYAxisTitle()).endsWith("(log scale)");
        assertThat(c.getStyler().getYAxisMin()).isZero();
        // lowest decade shown is 10^3 (floor(log10(1e4) - 0.15)), so 1e4 plots at 1 and 2e6 at log10(2e6) - 3
        CategorySeries slow = c.getSeriesMap().get("FILE_CHANNEL");
        assertThat(slow.getYData().iterator().next().doubleValue()).isCloseTo(1.0, offset(1e-9));
        assertThat(c.getSeriesMap().get("MAPPED").getYData().iterator().next().doubleValue())
                .isCloseTo(Math.log10(2e6) - 3, offset(1e-9));
        // 1% error becomes 0.01 / ln 10 decades
        assertThat(slow.getExtraValues().iterator().next().doubleValue()).isCloseTo(0.01 / Math.log(10), offset(1e-9));
        assertThat(c.getStyler().getyAxisTickLabelsFormattingFunction().apply(3.0)).isEqualTo("1M");
    }

    @Test
    void aVariantMissingFromAWorkloadLeavesAGap() {
        CategoryChart c = chart(List.of(row("MAPPED", "get", "100", 2.0e6), row("MAPPED", "put", "100", 1.0e6),
                row("FILE_CHANNEL", "get", "100", 1.5e6)));
        assertThat(new ArrayList<Number>(c.getSeriesMap().get("FILE_CHANNEL").getYData())).containsExactly(1.5e6, Double.NaN);
        assertThat(BitmapEncoderCheck.pixelsOf(c)).as("draws without failing").isPositive();
    }

    @Test
    void everyBarOfTheSvgHasItsOwnTooltipAlsoAfterAGap() {
        List<JmhResult> rows = List.of(row("MAPPED", "get", "100", 2.0e6), row("MAPPED", "put", "100", 1.0e6),
                row("FILE_CHANNEL", "get", "100", 1.5e6));
        SuiteResults suite = new SuiteResults(Suites.STORE, List.of(new ResultFile("store", java.nio.file.Path.of("store.json"), rows)));
        ChartSvg.Svg svg = Charts.svg(Charts.specs(suite).get(0), Suites.STORE, "test machine", "t-");
        assertThat(svg.tooltips()).isEqualTo(3);
        assertThat(svg.markup()).startsWith("<svg").endsWith("</svg>")
                .contains("<title>get \u00b7 MAPPED: 2,000,000 \u00b1 20,000 ops/s</title>",
                        "<title>put \u00b7 MAPPED: 1,000,000 \u00b1 10,000 ops/s</title>",
                        "<title>get \u00b7 FILE_CHANNEL: 1,500,000 \u00b1 15,000 ops/s</title>")
                .doesNotContain("NaN", "<?xml", "<!DOCTYPE")
                .containsPattern("id=\"t-[^\"]+\"");
        // FILE_CHANNEL's get sits beside MAPPED's get, left of MAPPED's put
        double mappedGet = tipX(svg.markup(), "get \u00b7 MAPPED");
        double channelGet = tipX(svg.markup(), "get \u00b7 FILE_CHANNEL");
        double mappedPut = tipX(svg.markup(), "put \u00b7 MAPPED");
        assertThat(channelGet).isGreaterThan(mappedGet).isLessThan(mappedPut);

        // a gap before a bar of the same series: XChart paints it first, with NaN corners, and it must
        // neither reach the SVG nor take the next bar's tooltip
        List<JmhResult> late = List.of(row("MAPPED", "get", "100", 2.0e6), row("MAPPED", "put", "100", 1.0e6),
                row("FILE_CHANNEL", "put", "100", 0.5e6));
        SuiteResults lateSuite = new SuiteResults(Suites.STORE, List.of(new ResultFile("store", java.nio.file.Path.of("store.json"), late)));
        ChartSvg.Svg lateSvg = Charts.svg(Charts.specs(lateSuite).get(0), Suites.STORE, "test machine", "u-");
        assertThat(lateSvg.markup()).doesNotContain("NaN");
        assertThat(tipX(lateSvg.markup(), "put \u00b7 FILE_CHANNEL")).isGreaterThan(tipX(lateSvg.markup(), "put \u00b7 MAPPED"));
    }

    private static double tipX(String svg, String tooltip) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<rect x=\"([0-9.]+)\"[^>]*><title>"
                + java.util.regex.Pattern.quote(tooltip)).matcher(svg);
        assertThat(m.find()).as(tooltip).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static CategoryChart chart(List<JmhResult> rows) {
        SuiteResults suite = new SuiteResults(Suites.STORE, List.of(new ResultFile("store", java.nio.file.Path.of("store.json"), rows)));
        List<Charts.Spec> specs = Charts.specs(suite);
        assertThat(specs).hasSize(1);
        return Charts.build(specs.get(0), Suites.STORE, "test machine");
    }

    private static JmhResult row(String backend, String method, String valueSize, double score) {
        Map<String, String> params = new java.util.LinkedHashMap<>();
        params.put("backend", backend);
        params.put("valueSize", valueSize);
        return JmhResult.of("io.caskbench.bench.store.BitCaskSingleThreadBenchmark." + method, "thrpt", params,
                Metric.of(score, score * 0.01, "ops/s"));
    }
}

/** Draws a chart in memory, so a test fails when XChart cannot paint the data. */
final class BitmapEncoderCheck {
    private BitmapEncoderCheck() {
    }

    static int pixelsOf(CategoryChart c) {
        java.awt.image.BufferedImage img = org.knowm.xchart.BitmapEncoder.getBufferedImage(c);
        return img.getWidth() * img.getHeight();
    }
}
