package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.docs.Docs;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Json;
import io.caskbench.report.input.Metric;
import io.caskbench.report.input.RunRecord;
import io.caskbench.report.rule.Goal;
import io.caskbench.report.rule.Spread;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The scale comparison: each store's figures by key count, the 10M / 1M ratios with their spread, and the goals. */
class ScaleTablesTest {

    /** A single-thread row whose three forks' means are {@code score} times each factor. */
    private static JmhResult single(String method, String store, long keys, double score, double... factors) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("keyCount", String.valueOf(keys));
        params.put("order", "RANDOM");
        params.put("store", store);
        params.put("valueSize", "100");
        return row("io.caskbench.bench.store.PeersSingleThread." + method, "thrpt", params, score, "ops/s", factors);
    }

    /** An open-time row (milliseconds per open) of BitCask MAPPED. */
    private static JmhResult open(String mode, long keys, double ms, double... factors) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("backend", "MAPPED");
        params.put("keyCount", String.valueOf(keys));
        params.put("mode", mode);
        return row("io.caskbench.bench.open.OpenBench.open", "ss", params, ms, "ms/op", factors);
    }

    private static JmhResult row(String benchmark, String mode, Map<String, String> params, double score, String unit,
            double... factors) {
        double[] f = factors.length == 0 ? new double[] {0.95, 1.0, 1.05} : factors;
        List<List<Double>> raw = java.util.Arrays.stream(f).mapToObj(x -> List.of(score * x)).toList();
        double mean = java.util.Arrays.stream(f).average().orElse(1) * score;
        return new JmhResult(benchmark, mode, 1, f.length, null, "17.0.15", params,
                new Metric(mean, mean / 20, List.of(), Map.of(), unit, raw), Map.of());
    }

    /** A run at 100k, 1M and 10M keys with one goal of each verdict and a FILE_CHANNEL put that failed at 10M. */
    private static List<JmhResult> run() {
        List<JmhResult> rows = new ArrayList<>();
        rows.add(single("get", "BITCASK_MAPPED", 100_000, 2_500_000));
        rows.add(single("get", "BITCASK_MAPPED", 1_000_000, 2_000_000));
        // 1.6M against 2M: 0.80, spread 1.52M / 2.1M = 0.72 to 1.68M / 1.9M = 0.88, all of it above 0.7.
        rows.add(single("get", "BITCASK_MAPPED", 10_000_000, 1_600_000));
        rows.add(single("put", "BITCASK_MAPPED", 1_000_000, 2_000_000));
        // 1M against 2M: 0.50 (0.45-0.55), all of it below 0.7.
        rows.add(single("put", "BITCASK_MAPPED", 10_000_000, 1_000_000));
        rows.add(single("get", "BITCASK_FILE_CHANNEL", 1_000_000, 1_000_000, 0.9, 1.0, 1.1));
        // 0.75, spread 675k / 1.1M = 0.61 to 825k / 900k = 0.92: across the goal.
        rows.add(single("get", "BITCASK_FILE_CHANNEL", 10_000_000, 750_000, 0.9, 1.0, 1.1));
        rows.add(single("put", "BITCASK_FILE_CHANNEL", 100_000, 1_200_000));
        rows.add(single("put", "BITCASK_FILE_CHANNEL", 1_000_000, 1_100_000));
        rows.add(single("get", "LMDB", 100_000, 900_000));
        rows.add(single("get", "LMDB", 1_000_000, 600_000));
        rows.add(single("get", "LMDB", 10_000_000, 300_000));
        rows.add(single("get", "HARNESS", 1_000_000, 50_000_000));
        rows.add(open("hints", 1_000_000, 90));
        rows.add(open("scan", 1_000_000, 340));
        // Forks 800, 900 and 1000 ms: every one within 1 s. Scan 2400-3000 over hints 800-1000: 3.00 (2.40-3.75).
        rows.add(open("hints", 10_000_000, 900, 800.0 / 900, 1.0, 1000.0 / 900));
        rows.add(open("scan", 10_000_000, 2_700, 2_400.0 / 2_700, 1.0, 3_000.0 / 2_700));
        return rows;
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(
                "no line starting with '" + start + "' in\n" + text));
    }

    private static List<String> lines(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).toList();
    }

    @Test
    void eachStoreHasItsFiguresByKeyCountAndTheRatioOfTheTwoLargestWithItsSpread() {
        String text = ScaleTables.render(run()).text();

        assertThat(line(text, "store ")).contains("100k keys", "1M keys", "10M keys", "10M / 1M (95% interval)");
        List<String> mapped = lines(text, "BitCask MAPPED ");
        assertThat(mapped).hasSize(2);
        // get: the mean of the forks' means at each count, then 10M over 1M.
        assertThat(mapped.get(0)).contains("2,500,000", "2,000,000", "1,600,000", "0.80 (0.72-0.88)");
        // put: no row at 100k is a dash, not a gap that shifts the columns.
        assertThat(mapped.get(1)).contains(" - ", "2,000,000", "1,000,000", "0.50 (0.45-0.55)");
        assertThat(lines(text, "LMDB ").get(0)).contains("900,000", "600,000", "300,000", "0.50 (0.45-0.55)");
        // The harness is a row of the table (what the loop costs), measured at 1M only.
        assertThat(line(text, "harness only")).contains("50,000,000");
    }

    @Test
    void goalsAreMetOnlyWhenTheWholeSpreadClearsThem() {
        String text = ScaleTables.render(run()).text();

        assertThat(line(text, "get, BitCask MAPPED: 10M keys / 1M keys")).contains("0.80 (0.72-0.88)", ">= 0.70", "met: 0.80 times");
        assertThat(line(text, "put, BitCask MAPPED: 10M keys / 1M keys")).contains("0.50 (0.45-0.55)", "not met: 0.50 times");
        assertThat(line(text, "get, BitCask FILE_CHANNEL: 10M keys / 1M keys")).contains("0.75 (0.61-0.92)",
                "undetermined: 0.75 times");
        assertThat(line(text, "put, BitCask FILE_CHANNEL: 10M keys / 1M keys")).contains("not measured")
                .doesNotContain("met").doesNotContain("undetermined");
        assertThat(line(text, "open 10M keys with hint files, ms")).contains("900 (800-1,000)", "<= 1000", "met: 900 ms");
        assertThat(line(text, "full scan time / open with hint files, 10M keys")).contains("3.00 (2.40-3.75)",
                ">= 3.00", "undetermined");
        assertThat(text).contains("Rows without a figure are measured by the scale suite (-Dcaskbench.suites=scale).");
    }

    @Test
    void theOpenTableGivesEachModeByKeyCountAndTheScanOverTheHints() {
        String text = ScaleTables.render(run()).text();

        assertThat(line(text, "MAPPED, with hint files")).contains("90.0 (85.5-94.5)", "900 (800-1,000)");
        assertThat(line(text, "MAPPED, full scan, hint files removed")).contains("340 (323-357)", "2,700 (2,400-3,000)");
        // 340 / 90 = 3.78, spread 323 / 94.5 = 3.42 to 357 / 85.5 = 4.18
        assertThat(line(text, "MAPPED, full scan / with hint files")).contains("3.78 (3.42-4.18)", "3.00 (2.40-3.75)");
    }

    @Test
    void aMissingRowIsADashAndNamedAndAMissingStoreIsNamed() {
        String text = ScaleTables.render(run()).text();

        // FILE_CHANNEL's put has no 10M row: a dash, a blank ratio, and a line that names it.
        String put = lines(text, "BitCask FILE_CHANNEL ").get(1);
        assertThat(put).contains("1,200,000", "1,100,000").endsWith("-").doesNotContain("(95% interval)");
        assertThat(text).contains("-: no row (not run, stopped or failed; see the JMH log), or a row below its label: BitCask MAPPED at 100k;"
                + " BitCask FILE_CHANNEL at 10M.", "harness only, no store at 100k and 10M.");
        // Stores with no row at all are named under each table; the JDK 22 backend, never run by default, is not.
        assertThat(text).contains("No row at any key count: RocksDB, Chronicle Map, MapDB HTreeMap, H2 MVStore,"
                + " heap ConcurrentHashMap reference, in-memory reference.");
        assertThat(text).doesNotContain("MEMORY_SEGMENT");
    }

    /** The row with a {@code keysInStore} secondary metric: how many keys its store held while measured. */
    private static JmhResult holding(JmhResult r, double keys) {
        return new JmhResult(r.benchmark(), r.mode(), r.threads(), r.forks(), r.jvm(), r.jdkVersion(), r.params(),
                r.primaryMetric(), Map.of(ScaleTables.KEYS_IN_STORE, Metric.of(keys, Double.NaN, "keys")));
    }

    @Test
    void aRowBelowNineTenthsOfItsLabelIsNeitherDrawnNorJudged() {
        List<JmhResult> rows = new ArrayList<>(run());
        rows.removeIf(r -> r.methodName().equals("put") && "BITCASK_MAPPED".equals(r.params().get("store"))
                && r.params().get("keyCount").equals("10000000"));
        // 8M of 10M keys: below 0.9 of the label, so the "10M" figure times a smaller store.
        rows.add(holding(single("put", "BITCASK_MAPPED", 10_000_000, 1_000_000), 8_000_000));
        // 9.5M of 10M: at its label.
        rows.add(holding(single("put", "LMDB", 10_000_000, 300_000), 9_500_000));
        rows.add(single("put", "LMDB", 1_000_000, 400_000));

        String text = ScaleTables.render(rows).text();

        assertThat(text).contains("Not drawn or judged: the store held fewer than 90% of its label's keys while"
                + " measured: BitCask MAPPED at 10M (8,000,000 keys held).");
        assertThat(line(text, "put, BitCask MAPPED: 10M keys / 1M keys")).contains("not measured")
                .doesNotContain("met");
        assertThat(line(text, "LMDB")).doesNotContain("400,000");
        assertThat(text.lines().filter(l -> l.startsWith("LMDB")).toList()).anySatisfy(l -> assertThat(l)
                .contains("400,000", "300,000"));
    }

    @Test
    void timeGoalsFollowTheForksAndOneForkIsMarked() {
        Metric over = new Metric(1_200, 0, List.of(), Map.of(), "ms/op", List.of(List.of(1_190.0), List.of(1_200.0),
                List.of(1_210.0), List.of(1_195.0), List.of(1_205.0)));
        Metric across = new Metric(1_000, 0, List.of(), Map.of(), "ms/op", List.of(List.of(900.0), List.of(1_100.0),
                List.of(1_000.0), List.of(950.0), List.of(1_050.0)));
        Metric one = new Metric(950, 0, List.of(), Map.of(), "ms/op", List.of(List.of(950.0)));
        Goal goal = Goal.atMost(1_000);
        assertThat(goal.reading(Spread.ofMean(over), "ms")).isEqualTo("not met: 1200 ms, the goal is at most 1000 ms");
        assertThat(goal.reading(Spread.ofMean(across), "ms")).startsWith("undetermined: 1000 ms");
        assertThat(goal.reading(Spread.ofMean(one), "ms")).isEqualTo(
                "undetermined: 950 ms, the goal is at most 1000 ms, one fork: no interval (indicative, 1 fork)");
    }

    @Test
    void aRunWithoutScaleRowsSaysWhichSuiteMeasuresThem() {
        String text = ScaleTables.render(List.of()).text();

        assertThat(text).contains("No get rows: they are measured by the scale suite", "not measured");
    }

    @Test
    void theDocsBlockHasTheTablesAndLinksTheChartsItWrites(@TempDir Path tmp) throws Exception {
        Path results = Files.createDirectories(tmp.resolve("run"));
        Json.MAPPER.writeValue(results.resolve("scale.json").toFile(), run());
        RunRecord.write(results, "scale", "./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests -Dcaskbench.suites=scale");
        String doc = "# Performance\n\nProse.\n\n<!-- generated:scale begin -->\nold\n<!-- generated:scale end -->\n";
        Path images = tmp.resolve("docs/img");

        String filled = Docs.fill(doc, results, "docs results docs/performance.md", new Docs.Images(images, "img")).text();

        assertThat(filled).startsWith("# Performance\n\nProse.\n\n<!-- generated:scale begin -->\n")
                .endsWith("<!-- generated:scale end -->\n").doesNotContain("\nold\n")
                .contains("from the scale results", "-Dcaskbench.suites=scale", "#### Get, one thread: ops/s by key count",
                        "![get, ops/s by key count, every store](img/" + ScaleTables.GET_CHART + ")",
                        "![put, ops/s by key count, every store](img/" + ScaleTables.PUT_CHART + ")",
                        "| store | 100k keys | 1M keys | 10M keys | 10M / 1M (95% interval) |", "#### Goals at 10M keys");
        // get: BitCask MAPPED 3 points, FILE_CHANNEL 2, LMDB 3; the harness is not drawn.
        assertThat(markers(images.resolve(ScaleTables.GET_CHART))).hasSize(8)
                .contains("get, 10M keys \u00b7 BitCask MAPPED: 1,600,000 ops/s").noneMatch(t -> t.contains("harness"));
        // put: MAPPED at 1M and 10M, FILE_CHANNEL at 100k and 1M.
        assertThat(markers(images.resolve(ScaleTables.PUT_CHART))).hasSize(4);
        assertThat(Files.readString(images.resolve(ScaleTables.GET_CHART), StandardCharsets.UTF_8))
                .contains("LMDB", "100k", "10M");
    }

    /** The tooltips of a chart file, which must be a well-formed SVG document. */
    private static List<String> markers(Path chart) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Element svg = factory.newDocumentBuilder().parse(chart.toFile()).getDocumentElement();
        assertThat(svg.getLocalName()).isEqualTo("svg");
        assertThat(svg.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        NodeList titles = svg.getElementsByTagNameNS("*", "title");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < titles.getLength(); i++) {
            out.add(titles.item(i).getTextContent());
        }
        return out;
    }
}
