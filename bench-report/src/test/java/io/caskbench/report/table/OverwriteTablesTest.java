package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.OverwriteSeries;
import io.caskbench.report.rule.OpenLoopRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The overwrite block on synthetic rows and time series: its table, its target verdicts and its charts. */
class OverwriteTablesTest {

    private static final String RUN = "2026-11-26T10-00-00-overwrite";
    private static final String HEADER = "second,opsPerSecond,putsPerSecond,putP50Us,putP99Us,getP99Us,diskBytes,"
            + "liveBytes,spaceAmp,deviceBytes,appBytes,writeAmp,compactions,compactionMillis";

    @Test
    void tableTargetsAndAChartPerStoreAndFigure(@TempDir Path tmp) throws Exception {
        Path results = Files.createDirectories(tmp.resolve(RUN));
        series(results, "overwrite-bitcask_default-100-zipfian-full-11.csv", 1.4);
        series(results, "overwrite-bitcask_default-100-zipfian-full-12.csv", 9.9); // a second fork: not drawn
        series(results, "overwrite-rocksdb_default-1024-uniform-20000-13.csv", 1.1);
        List<JmhResult> rows = List.of(
                row("BITCASK_DEFAULT", "100", "ZIPFIAN", "0", 1.62, 2.5, 0.5),
                row("ROCKSDB_DEFAULT", "100", "ZIPFIAN", "0", 1.1, 14.0, 1.0),
                row("ROCKSDB_DEFAULT", "1024", "UNIFORM", "20000", 1.1, 12.0, 1.0));
        Path images = results.resolve("img");

        String md = OverwriteTables.render(rows, results, "test machine", images, "img").markdown(3);

        assertThat(md).contains("| BITCASK_DEFAULT | 100 | zipfian | full speed (closed loop) |",
                "| ROCKSDB_DEFAULT | 1024 | uniform | 20,000 ops/s |");
        assertThat(md).contains("| 100 B, zipfian, full speed (closed loop) | 1.62 missed by 8% | 2.50 met | 14.00 |"
                + " 0.50 missed by 29% | 96.0 MiB of at most 64.0 MiB: missed by 50% |");
        assertThat(md).doesNotContain("12.00 missed"); // only the store's defaults are judged
        for (String store : new String[] {"bitcask_default", "rocksdb_default"}) {
            Path svg = images.resolve("overwrite-" + RUN + "-" + store + ".svg");
            assertThat(md).contains("(img/" + svg.getFileName() + ")");
            String text = Files.readString(svg);
            assertThat(text).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" height=\"900px\"").endsWith("</svg>\n");
            // three panels, one under the other: throughput, space amplification, put p99
            assertThat(text).contains(" y=\"0px\"", " y=\"300px\"", " y=\"600px\"");
            assertThat(text.split("<svg", -1)).hasSize(5);
        }
        List<OverwriteSeries> listed = OverwriteSeries.list(results);
        assertThat(listed).hasSize(2);
        assertThat(listed).extracting(OverwriteSeries::store).containsExactly("BITCASK_DEFAULT", "ROCKSDB_DEFAULT");
        assertThat(listed.get(0).points()).hasSize(3);
        assertThat(listed.get(0).points().get(2).spaceAmp()).isEqualTo(1.4);
        assertThat(listed.get(0).label()).isEqualTo("100 B, zipfian, full speed");
        assertThat(listed.get(1).label()).isEqualTo("1 KiB, uniform, 20,000 ops/s");
    }

    @Test
    void aFixedRateRowIsFollowedByItsHarnessAndHeldToTheOpenLoopRules(@TempDir Path results) {
        JmhResult atFloor = row("BITCASK_DEFAULT", "100", "UNIFORM", "20000", 1.2, 2.0, 1.0);
        atFloor.secondaryMetrics().put("offered", Metric.of(20_000, Double.NaN, "ops/s"));
        atFloor.secondaryMetrics().put("unfinished", Metric.of(0, Double.NaN, "ops"));
        atFloor.secondaryMetrics().put("harness:p50", Metric.of(60, Double.NaN, "us"));
        atFloor.secondaryMetrics().put("harness:p99", Metric.of(130, Double.NaN, "us"));
        JmhResult behind = row("ROCKSDB_DEFAULT", "100", "UNIFORM", "20000", 1.2, 9.0, 1.0);
        behind.secondaryMetrics().put("offered", Metric.of(20_000, Double.NaN, "ops/s"));
        behind.secondaryMetrics().put("achieved", Metric.of(15_000, Double.NaN, "ops/s"));
        behind.secondaryMetrics().put("unfinished", Metric.of(2_500, Double.NaN, "ops"));
        behind.secondaryMetrics().put("harness:p50", Metric.of(60, Double.NaN, "us"));
        behind.secondaryMetrics().put("harness:p99", Metric.of(100, Double.NaN, "us"));
        List<JmhResult> rows = List.of(atFloor, behind, row("BITCASK_DEFAULT", "100", "UNIFORM", "0", 1.2, 2.0, 1.0));

        String md = OverwriteTables.render(rows, results, "test machine", null, "img").markdown(3);

        // Put p99 250 against the harness's 130: within 2x.
        assertThat(md).contains("| BITCASK_DEFAULT | 100 | uniform | 20,000 ops/s | 20,000 | 1.20 |",
                "| 250, at the harness floor |", "| harness only | 100 | uniform | 20,000 ops/s |  |",
                "| 130 | 130 |", "| 15,000, did not keep up, 2,500 censored |", "| 250 |");
        // At full speed: closed loop, no harness row, no floor.
        assertThat(md).contains("| BITCASK_DEFAULT | 100 | uniform | full speed (closed loop) | 20,000 | 1.20 |");
        assertThat(md.lines().filter(l -> l.startsWith("| harness only"))).hasSize(2);
        assertThat(md).contains(OpenLoopRule.LEGEND);

        String noHarness = OverwriteTables.render(List.of(row("ROCKSDB_DEFAULT", "100", "UNIFORM", "20000", 1.2, 9.0,
                1.0)), results, "test machine", null, "img").markdown(3);
        assertThat(noHarness).contains("| harness only |  |  |  | " + OpenLoopRule.NO_FLOOR + " |")
                .doesNotContain("at the harness floor |");
        String closedOnly = OverwriteTables.render(List.of(row("ROCKSDB_DEFAULT", "100", "UNIFORM", "0", 1.2, 9.0,
                1.0)), results, "test machine", null, "img").markdown(3);
        assertThat(closedOnly).doesNotContain("harness");
    }

    @Test
    void theDocsCommandFillsTheOverwriteBlock(@TempDir Path tmp) throws Exception {
        Path results = Files.createDirectories(tmp.resolve(RUN));
        series(results, "overwrite-bitcask_default-100-zipfian-full-11.csv", 1.4);
        Files.writeString(results.resolve("overwrite.json"), "[{\"benchmark\": "
                + "\"io.caskbench.bench.store.SustainedOverwrite.overwrite\", \"mode\": \"ss\", \"threads\": 1, "
                + "\"forks\": 1, \"jvm\": \"java\", \"jdkVersion\": \"17\", \"params\": {\"store\": "
                + "\"BITCASK_DEFAULT\", \"valueSize\": \"100\", \"skew\": \"ZIPFIAN\", \"rate\": \"0\"}, "
                + "\"primaryMetric\": {\"score\": 600.0, \"scoreError\": \"NaN\", \"scoreUnit\": \"s/op\"}, "
                + "\"secondaryMetrics\": {\"spaceAmpMax\": {\"score\": 1.4, \"scoreError\": \"NaN\", "
                + "\"scoreUnit\": \"ratio\"}}}]");
        String doc = "# Perf\n\n<!-- generated:overwrite begin -->\nold\n<!-- generated:overwrite end -->\n";

        Docs.Filled filled = Docs.fill(doc, results, "docs results docs/performance.md",
                new Docs.Images(results.resolve("img"), "img"));

        assertThat(filled.written()).containsExactly("overwrite");
        assertThat(filled.text()).doesNotContain("\nold\n").contains("1.40 met",
                "(img/overwrite-" + RUN + "-bitcask_default.svg)");
    }

    @Test
    void aTruncatedLineIsRefused(@TempDir Path results) throws Exception {
        Files.writeString(results.resolve("overwrite-bitcask_tuned-100-uniform-full-1.csv"), HEADER + "\n1.0,5\n");
        assertThatThrownBy(() -> OverwriteSeries.list(results)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("columns");
    }

    @Test
    void verdictsSayByHowMuch() {
        assertThat(OverwriteTables.atMost(1.5, 1.5)).isEqualTo("1.50 met");
        assertThat(OverwriteTables.atMost(3.3, 3)).isEqualTo("3.30 missed by 10%");
        assertThat(OverwriteTables.atLeast(0.63, 0.7)).isEqualTo("0.63 missed by 10%");
        assertThat(OverwriteTables.atLeast(Double.NaN, 0.7)).isEqualTo("n/a");
        assertThat(OverwriteTables.writeAmp(0)).isEqualTo("n/a (no device bytes counted)");
        assertThat(OverwriteTables.writeAmp(2.5)).isEqualTo("2.50 met");
        assertThat(OverwriteTables.bounded(32 << 20, 1 << 30)).isEqualTo("32.0 MiB of at most 1024.0 MiB: met");
        assertThat(OverwriteTables.bounded(Double.NaN, 1 << 30)).isEqualTo("n/a (no merge finished)");
        assertThat(OverwriteTables.bounded(32 << 20, Double.NaN)).isEqualTo("32.0 MiB, no bound set");
    }

    private static void series(Path dir, String name, double lastSpaceAmp) throws Exception {
        Files.writeString(dir.resolve(name), HEADER + "\n"
                + "1.000,1000.0,800.0,10.0,50.0,30.0,1100,1000,1.1000,200,100,2.0000,0,-1\n"
                + "2.000,900.0,700.0,10.0,70.0,30.0,1200,1000,1.2000,400,200,2.0000,1,-1\n"
                + "3.000,950.0,750.0,10.0,NaN,30.0,1400,1000," + lastSpaceAmp + ",600,300,2.0000,1,-1\n");
    }

    private static JmhResult row(String store, String value, String skew, String rate, double spaceAmpMax,
            double writeAmp, double drift) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("store", store);
        params.put("valueSize", value);
        params.put("skew", skew);
        params.put("rate", rate);
        Map<String, Metric> secondary = new LinkedHashMap<>();
        secondary.put("spaceAmpMax", Metric.of(spaceAmpMax, Double.NaN, "ratio"));
        secondary.put("spaceAmpMean", Metric.of(1.2, Double.NaN, "ratio"));
        secondary.put("writeAmp", Metric.of(writeAmp, Double.NaN, "ratio"));
        secondary.put("throughputRunOverFirstMinute", Metric.of(drift, Double.NaN, "ratio"));
        secondary.put("throughputLastOverFirstMinute", Metric.of(drift - 0.1, Double.NaN, "ratio"));
        secondary.put("achieved", Metric.of(20_000, Double.NaN, "ops/s"));
        secondary.put("put:p99", Metric.of(250, Double.NaN, "us"));
        if (store.startsWith("BITCASK")) {
            secondary.put("largestCompactionBytes", Metric.of(96 << 20, Double.NaN, "bytes"));
            secondary.put("compactionInputBound", Metric.of(64 << 20, Double.NaN, "bytes"));
        }
        return new JmhResult("io.caskbench.bench.store.SustainedOverwrite.overwrite", "ss", 1, 1, "java", "17",
                params, Metric.of(600, Double.NaN, "s/op"), secondary);
    }
}
