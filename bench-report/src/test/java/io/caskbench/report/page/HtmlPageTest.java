package io.caskbench.report.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.chart.Charts;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.input.RunFolders;
import io.caskbench.report.rule.SuiteResults;
import io.caskbench.report.testing.SampleRuns;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The structure of the rendered page: one self-contained file whose charts are inline SVG, one per
 * chart, each bar with a tooltip naming its value and error; and the PNG variant on request.
 */
class HtmlPageTest {

    private static final Pattern SVG = Pattern.compile("<svg\\b.*?</svg>", Pattern.DOTALL);

    @TempDir
    static Path shared;

    private static Path run;
    private static String html;

    @TempDir
    Path dir;

    @BeforeAll
    static void renderSampleOnce() throws IOException {
        run = SampleRuns.copy("sample-run", shared);
        html = Files.readString(Reports.renderAll(run));
    }

    @Test
    void aPartialRunSaysSoAndACompleteOneDoesNot() throws IOException {
        assertThat(html).doesNotContain("partial run");
        Path partial = SampleRuns.copy("sample-run", dir);
        Files.writeString(partial.resolve(RunFolders.PARTIAL), "interrupted after 2 of 9 runs\n");
        assertThat(Files.readString(Reports.renderAll(partial)))
                .contains("<strong>partial run</strong>: interrupted after 2 of 9 runs");
    }

    /** Every link of the page's navigation names the heading it lands on. */
    @Test
    void eachNavigationLinkNamesTheHeadingItLandsOn() {
        Matcher links = Pattern.compile("<a href=\"#([^\"]+)\">([^<]+)</a>").matcher(html.substring(0, html.indexOf("</nav>")));
        int checked = 0;
        while (links.find()) {
            Matcher heading = Pattern.compile("<h2 id=\"" + Pattern.quote(links.group(1)) + "\">([^<]+)</h2>").matcher(html);
            assertThat(heading.find()).as("a heading for #%s", links.group(1)).isTrue();
            assertThat(heading.group(1).toLowerCase(Locale.ROOT))
                    .as("the heading that the link '%s' lands on", links.group(2))
                    .contains(links.group(2).toLowerCase(Locale.ROOT));
            checked++;
        }
        assertThat(checked).isGreaterThan(1);
    }

    @Test
    void pageReferencesNoOtherFile() {
        assertThat(html).doesNotContain("<img", "<script", "<link", "<iframe", "<object", "<embed", "@import",
                "http://", "https://");
        assertThat(html).doesNotContainPattern("\\b(src|srcset)=");
        // the only links are anchors within the page
        Matcher href = Pattern.compile("href=\"([^\"]*)\"").matcher(html);
        while (href.find()) {
            assertThat(href.group(1)).startsWith("#");
        }
        try (var files = Files.list(run)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".png"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void oneInlineSvgPerChartWithATooltipOnEveryBar() throws Exception {
        List<SuiteResults> suites = SuiteResults.group(ResultFile.listIn(run));
        List<Charts.Spec> specs = new ArrayList<>();
        suites.forEach(s -> specs.addAll(Charts.specs(s)));
        List<String> svgs = new ArrayList<>();
        Matcher m = SVG.matcher(html);
        while (m.find()) {
            svgs.add(m.group());
        }
        assertThat(specs).hasSizeGreaterThan(10);
        assertThat(svgs).hasSameSizeAs(specs);
        assertThat(count(html, "<figure class=\"chart\"><svg role=\"img\" aria-label=\"")).isEqualTo(specs.size());

        Set<String> ids = new HashSet<>();
        for (int i = 0; i < svgs.size(); i++) {
            Document doc = parse(svgs.get(i));
            Charts.Spec spec = specs.get(i);
            long bars = spec.rows().stream().filter(r -> r.primaryMetric().score() > 0).count();
            NodeList titles = doc.getElementsByTagName("title");
            assertThat(titles.getLength()).as("a tooltip per bar of %s", spec.group()).isEqualTo((int) bars);
            for (int t = 0; t < titles.getLength(); t++) {
                Element rect = (Element) titles.item(t).getParentNode();
                assertThat(rect.getTagName()).isEqualTo("rect");
                assertThat(Double.parseDouble(rect.getAttribute("width"))).isPositive();
                assertThat(titles.item(t).getTextContent()).matches(".+: [0-9.,e+-]+( \u00b1 [0-9.,e+-]+| \\(no error estimate\\)) .+");
            }
            NodeList all = doc.getElementsByTagName("*");
            for (int e = 0; e < all.getLength(); e++) {
                String id = ((Element) all.item(e)).getAttribute("id");
                if (!id.isEmpty()) {
                    assertThat(ids.add(id)).as("id %s is unique on the page", id).isTrue();
                }
            }
            // every url(#...) points at an element of the same chart
            Matcher ref = Pattern.compile("url\\(#([^)]+)\\)").matcher(svgs.get(i));
            while (ref.find()) {
                assertThat(doc.getElementById(ref.group(1)) != null || svgs.get(i).contains("id=\"" + ref.group(1) + "\""))
                        .as("target of %s", ref.group()).isTrue();
            }
        }
    }

    @Test
    void tooltipsGiveTheRealValueAndErrorAlsoOnALogScale() {
        // PeersSingleThread spans RocksDB to the in-memory bound; its tooltips carry ops/s, not log10 values
        assertThat(html).contains("get \u00b7 ROCKSDB: 520,000 \u00b1 26,000 ops/s</title>");
    }

    @Test
    void crossCheckRowsAreMarkedAndLeftOutOfTheCharts() {
        assertThat(html).containsPattern("<tr class=\"xcheck\"><td>JmhThreadsCrossCheck\\.get</td><td>[^<]*"
                + " <span class=\"badge xbadge\">cross-check, not a result</span>.*?<td class=\"nw\">not a result</td>");
        Matcher titles = Pattern.compile("<title>([^<]*)</title>").matcher(html);
        while (titles.find()) {
            assertThat(titles.group(1)).doesNotContain("CrossCheck");
        }
    }

    @Test
    void pngOptionWritesImagesBesideThePage() throws IOException {
        Path copy = SampleRuns.copy("sample-run", dir);
        SampleRuns.Run cli = SampleRuns.cli("render", "--png", copy.toString());
        assertThat(cli.code()).isZero();
        String page = Files.readString(copy.resolve(Reports.INDEX));
        assertThat(page).doesNotContain("<svg");
        Matcher img = Pattern.compile("<img src=\"(chart-[^\"]+\\.png)\"").matcher(page);
        int images = 0;
        while (img.find()) {
            images++;
            assertThat(copy.resolve(img.group(1))).isRegularFile();
        }
        assertThat(images).isEqualTo(count(html, "<svg"));

        // rendering again without --png leaves no stale image beside the page
        assertThat(SampleRuns.cli("render", copy.toString()).code()).isZero();
        try (var files = Files.list(copy)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".png"));
        }
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static int count(String text, String literal) {
        int n = 0;
        for (int i = text.indexOf(literal); i >= 0; i = text.indexOf(literal, i + 1)) {
            n++;
        }
        return n;
    }
}
