package io.caskbench.report.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.CacheState;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.testing.SampleRuns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the checked-in sample run (src/test/resources/sample-run) and checks what the page says. */
class ReportsTest {

    /** The sample rendered once for the tests that only read the output: charts take a while to draw. */
    @TempDir
    static Path shared;

    private static Path rendered;

    @TempDir
    Path dir;

    @BeforeAll
    static void renderSampleOnce() throws IOException {
        rendered = SampleRuns.copy("sample-run", shared);
        Reports.renderAll(rendered);
    }

    @Test
    void writesASummaryPerResultFileWithRatios() throws IOException {
        Path results = rendered;

        for (String name : List.of("store", "files", "shm", "shm-c", "shm-messaging")) {
            assertThat(results.resolve(name + "-summary.txt")).exists();
        }
        assertThat(results.resolve("machine-summary.txt")).doesNotExist();
        assertThat(results.resolve("files-cache-summary.txt")).doesNotExist();

        String store = Files.readString(results.resolve("store-summary.txt"));
        assertThat(store).contains("# machine: 2 x AMD EPYC 7B13")
                .containsPattern("PeersSingleThread\\.get +store=ROCKSDB, keyCount=1000000, valueSize=100, order=RANDOM +thrpt"
                        + " +520,000 +± 26,000 +ops/s +0\\.182 +5\\.48x slower")
                .containsPattern("PeersSingleThread\\.get +store=BITCASK_MAPPED, .* 1\\.000 +reference")
                .containsPattern("BitCaskSingleThread\\.put +backend=FILE_CHANNEL, keyCount=100000, valueSize=4080, order=RANDOM .* 0\\.412 +2\\.43x slower");
        String shm = Files.readString(results.resolve("shm-summary.txt"));
        assertThat(shm).as("Java clear against the C anchor of shm-c.json")
                .containsPattern("ClearBench\\.seedNewArray +backing=disk, region=64KiB .* 5\\.026 +5\\.03x slower")
                .as("direct buffers against C on anonymous memory")
                .containsPattern("RandomWriteBench\\.absolutePut +backing=direct, region=1GiB .* 1\\.267 +1\\.27x slower");
        String files = Files.readString(results.resolve("files-summary.txt"));
        assertThat(files).contains("cache=cold, fileCount=800 [cold, evicted (fadvise)]")
                .containsPattern("RandomChunkRead\\.mapped +chunk=256, randomFileMb=256 .* 0\\.133 +7\\.50x faster")
                .containsPattern("SmallFileSetRead\\.bufferedStream +cache=warm, fileCount=800 .* 1\\.000 +reference");
    }

    @Test
    void indexShowsMachineChartsTablesAndSeeds() throws IOException {
        Path results = rendered;
        String html = Files.readString(results.resolve(Reports.INDEX));

        assertThat(html).contains("<dt>CPUs</dt><dd>2 x AMD EPYC 7B13</dd>", "23.5 GiB", "Linux 6.1.0 (amd64)");
        assertThat(html.indexOf("id=\"suite-store\"")).isLessThan(html.indexOf("id=\"suite-files\""));
        assertThat(html.indexOf("id=\"suite-files\"")).isLessThan(html.indexOf("id=\"suite-shm\""));
        assertThat(html).contains("id=\"suite-shm-messaging\"", "id=\"seeds\"");

        // every chart of every suite is on the page, inline (HtmlPageTest checks the SVG itself)
        assertThat(count(html, "<figure class=\"chart\"><svg")).isEqualTo(18);
        assertThat(html).contains("aria-label=\"store: PeersSingleThread in ops/s\"", "aria-label=\"shm: Clear 64KiB in ns/op\"",
                "aria-label=\"shm: RandomWrite 1GiB in ns/op\"", "aria-label=\"files: RandomChunkRead in ns/op\"",
                "aria-label=\"files: other in ms/op\"", "aria-label=\"shm-messaging: Messaging in us/op\"");

        // values and ratios in the suite tables
        assertThat(html).containsPattern("PeersSingleThread.get</td><td>store=ROCKSDB, keyCount=1000000, valueSize=100, order=RANDOM"
                + "<br><small class=\"muted\">heapBytesPerKey 12.00 B/key &middot; diskBytesPerKey 95.00 B/key</small></td><td>thrpt</td>"
                + "<td class=\"num\">1</td><td class=\"num\">520,000</td><td class=\"num\">26,000</td><td>ops/s</td>"
                + "<td class=\"num\">0.182</td><td class=\"nw\"><span class=\"slower\">5.48x slower</span>");
        assertThat(html).containsPattern("<tr class=\"ref\"><td>PeersSingleThread.get</td><td>store=BITCASK_MAPPED");
        assertThat(html).as("shared memory against UDP").containsPattern(
                "Messaging.roundTrip</td><td>transport=shm, peer=java, payload=64</td>.*?<td class=\"num\">0.032</td>"
                        + "<td class=\"nw\"><span class=\"faster\">31.11x faster</span>");

        // cold rows are labelled cold because their counters show verified evictions and no unverified one
        assertThat(html).contains("<span class=\"badge cold\">cold, evicted (fadvise)</span>", "cold confirmed: 6.4x the warm time")
                .doesNotContain("NOT cold");

        // the seed table: a row per seed experiment, with our figure where the run has one
        assertThat(count(html, "<tr data-seed=\"00[0-4]\"")).isEqualTo(SeedFigures.load().size());
        assertThat(html).contains("<th colspan=\"5\">" + SeedFigures.title("001") + " &middot; KVM guest: 4 vCPUs");
        assertThat(html).containsPattern("Java clear / C clear, 64 KiB.*?<td class=\"num\">7.768<br>.*?<b>5.026</b>");
        assertThat(html).containsPattern("64 KiB region, clear, Java MappedByteBuffer put\\(new byte\\[size\\]\\).*?"
                + "16,018<br>.*?<b>9,800</b>.*?<td class=\"num\">0.612<br><span class=\"faster\">1.63x faster</span>");
        assertThat(html).as("ms per pass of 800 files, straight from the small-set benchmark").containsPattern(
                "800 files of 1-4 KB read whole, Java BufferedInputStream, warm.*?<b>14.20</b>");
        assertThat(html).as("the scaled large set in MiB/s: 16 MiB largest file = 81.5 MiB per pass in 31 ms")
                .containsPattern("7 files of 42-94 MB.*?<b>2,628</b> <span class=\"muted\">MiB/s");

        assertThat(html).as("the Java BitCask experiment against SeedWorkload on BitCask MAPPED").containsPattern(
                "1M puts on one thread.*?1,360,161<br>.*?<b>1,210,000</b>.*?SeedWorkload.singlePut \\{store=BITCASK_MAPPED, workload=SEED\\}"
                        + ".*?<td class=\"num\">0.890<br><span class=\"slower\">1.12x slower</span>");

        // self-contained: nothing fetched from anywhere
        assertThat(html).doesNotContain("http://", "https://", "<script", "<link", "@import")
                .as("url() only for the charts' own clip paths").doesNotContainPattern("url\\((?!#)");
    }

    @Test
    void coldRowsWithAnUnverifiedEvictionAreNotCalledCold() throws IOException {
        Path results = SampleRuns.copy("sample-run", dir);
        Path files = results.resolve("files.json");
        // one invocation of each cold trial found its files still cached
        Files.writeString(files, markColdUnverified(Files.readString(files)));
        String html = Files.readString(Reports.renderAll(results));
        assertThat(html).doesNotContain("badge cold\"")
                .contains("<span class=\"badge notcold\">NOT cold: not evicted</span>",
                        "not cold: the run could not evict the page cache, so this is a warm figure",
                        "cold cache not achieved in this run");
        assertThat(Files.readString(results.resolve("files-summary.txt"))).contains("cache=cold, fileCount=800 [NOT cold: not evicted]");
    }

    @Test
    void withoutCountersTheFolderSideFileDecides() throws IOException {
        Files.writeString(dir.resolve("files.json"), """
                [{"benchmark":"x.SmallFileSetRead.bufferedStream","mode":"avgt","params":{"cache":"warm"},
                  "primaryMetric":{"score":10.0,"scoreError":0.5,"scoreUnit":"ms/op"}},
                 {"benchmark":"x.SmallFileSetRead.bufferedStream","mode":"avgt","params":{"cache":"cold"},
                  "primaryMetric":{"score":80.0,"scoreError":4.0,"scoreUnit":"ms/op"}}]
                """);
        assertThat(Files.readString(Reports.renderAll(dir))).contains("NOT cold: not evicted");

        Files.writeString(dir.resolve(CacheState.FILE_NAME), "{\"evicted\": false, \"detail\": \"drop_caches not permitted\"}");
        assertThat(Files.readString(Reports.renderAll(dir)))
                .contains("the run could not evict the page cache, so its cold rows ran warm (drop_caches not permitted)")
                .doesNotContain("badge cold\"");

        Files.writeString(dir.resolve(CacheState.FILE_NAME), "{\"evicted\": true, \"method\": \"drop_caches\"}");
        assertThat(Files.readString(Reports.renderAll(dir)))
                .contains("page cache evicted by drop_caches", "<span class=\"badge cold\">cold, evicted</span>",
                        "cold confirmed: 8.0x the warm time");
    }

    /** Sets coldUnverified to 1 in every cold row of a files.json written by the sample generator. */
    private static String markColdUnverified(String json) {
        StringBuilder out = new StringBuilder();
        for (String entry : json.split("(?=\\{\\s*\"jmhVersion\")")) {
            out.append(entry.contains("\"cache\": \"cold\"")
                    ? entry.replaceFirst("(\"coldUnverified\": \\{\\s*\"score\": )0", "$11") : entry);
        }
        return out.toString();
    }

    @Test
    void aPerRowEvictMetricDecidesForThatRow() {
        JmhResult cold = new JmhResult("x.WholeFileReadBenchmark.mapped", "avgt", 1, 1, null, null,
                java.util.Map.of("cache", "cold"), Metric.of(10, 1, "ms/op"),
                java.util.Map.of("evicted", Metric.of(0, Double.NaN, "#")));
        CacheState folderSaysYes = new CacheState(java.util.Optional.of(true), "", "");
        assertThat(folderSaysYes.reallyCold(cold)).as("the row's own metric says it was not evicted").isFalse();
    }

    @Test
    void rendersAnySubsetUnknownSuitesAndSkipsBrokenFiles() throws IOException {
        Files.writeString(dir.resolve("mystery.json"), """
                [{"benchmark":"org.example.Mystery.spin","mode":"thrpt","threads":1,"forks":1,
                  "params":{"n":"3"},"primaryMetric":{"score":42.5,"scoreError":"NaN","scoreUnit":"ops/us"}}]
                """);
        Files.writeString(dir.resolve("broken.json"), "[{\"benchmark\":");
        Files.writeString(dir.resolve("notes.json"), "{\"not\":\"results\"}");
        String html = Files.readString(Reports.renderAll(dir));
        assertThat(html).contains("id=\"suite-mystery\"", "Mystery.spin", "42.50", "no reference rule for this suite",
                "machine unknown", "No row of this run measures the work of a reference experiment",
                "-Dreport.args=\"machine " + dir + "\"").doesNotContain("Machine.write", "not in this run");
        assertThat(dir.resolve("mystery-summary.txt")).exists();
        assertThat(dir.resolve("broken-summary.txt")).doesNotExist();
    }

    @Test
    void keepsARunnersOwnSummaryAndReplacesOnlyItsTable() throws IOException {
        Path results = SampleRuns.copy("sample-run", dir);
        Path summary = results.resolve("store-summary.txt");
        Files.writeString(summary, "caskbench suite 'store', profile quick\nratio vs best peer: 0.65\n");
        Reports.renderAll(results);
        Reports.renderAll(results);
        String text = Files.readString(summary);
        assertThat(text).startsWith("caskbench suite 'store', profile quick\nratio vs best peer: 0.65\n\n" + Summaries.MARKER);
        assertThat(text.indexOf(Summaries.MARKER)).isEqualTo(text.lastIndexOf(Summaries.MARKER));
        assertThat(text).contains("PeersSingleThread.get");
    }

    @Test
    void rendersAnEmptyFolder() throws IOException {
        Path empty = dir.resolve("empty-results");
        String html = Files.readString(Reports.renderAll(empty));
        assertThat(html).contains("No JMH result files");
    }

    @Test
    void cliRendersOnDemand() throws IOException {
        Path results = SampleRuns.copy("sample-run", dir);
        SampleRuns.Run run = SampleRuns.cli("render", results.toString());
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("report: ").contains("index.html");
        assertThat(results.resolve("index.html")).exists();
        assertThat(SampleRuns.cli("render", dir.resolve("missing").toString()).code()).isEqualTo(2);
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
