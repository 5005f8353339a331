package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.testing.SampleRuns;
import io.caskbench.report.text.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** The README's headline: a chart file of every store's single-thread figures, and three rows against the best peer. */
class HeadlineTest {

    @Test
    void theCommandWritesTheChartAndThreeRowsIntoTheReadme(@TempDir Path tmp) throws Exception {
        Path results = SampleRuns.copy("sample-run", tmp);
        Path readme = Files.writeString(tmp.resolve("README.md"), SampleRuns.page("headline"));
        Path images = tmp.resolve("docs/img");

        assertThat(SampleRuns.report("docs", results.toString(), readme.toString(), "--images", images.toString()))
                .isZero();

        String text = Files.readString(readme, StandardCharsets.UTF_8);
        assertThat(text).startsWith("# caskbench\n\nIntro.\n\n<!-- generated:headline begin -->\n")
                .endsWith("<!-- generated:headline end -->\n\nLinks.\n")
                .contains("from the store results", "(docs/img/" + Headline.CHART + ")");
        List<String> rows = text.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| at 1M") && !l.startsWith("| ---")).toList();
        // The 1000-thread rows come from their own suite's run and have a block of their own.
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).startsWith("| get, 1 thread |");
        assertThat(rows.get(1)).startsWith("| put, 1 thread |");
        assertThat(rows.get(2)).startsWith("| disk bytes per key");
        assertThat(text).doesNotContain("1000 threads |");
        // One fork: a ratio is given, but never called a win or a loss, and marked indicative.
        assertThat(rows).allSatisfy(r -> assertThat(r)
                .endsWith("| undetermined (indicative, 1 fork) |").contains("(1 fork)"));
        // The in-memory store is a reference: nothing in the headline calls anything a bound or a ceiling.
        assertThat(text.toLowerCase(java.util.Locale.ROOT)).doesNotContain("bound", "ceiling");
        // Under the headline: the sync policy, that no store forces per write, and what each store defers.
        assertThat(text).contains("BitCask runs with SyncPolicy.NONE and no store here forces per write",
                Headline.DEFERS, "The 1000-thread rows have a block of their\nown, from a run of the `threads` suite: `"
                        + Headline.THREADS_COMMAND + "`.");

        // The chart is a well-formed SVG file with a tooltip for each store's get and put.
        Path chart = images.resolve(Headline.CHART);
        var factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Element svg = factory.newDocumentBuilder().parse(chart.toFile()).getDocumentElement();
        assertThat(svg.getLocalName()).isEqualTo("svg");
        assertThat(svg.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        // BitCask's two backends and the five peers; the heap reference is not a store and is not drawn.
        assertThat(svg.getElementsByTagNameNS("*", "title").getLength()).isEqualTo(14);
        assertThat(Files.readString(chart)).contains("LMDB").doesNotContain("CONCURRENT_HASH_MAP");
    }

    @Test
    void theBestPeerIsTheFastestForThroughputAndTheSmallestForDisk(@TempDir Path tmp) throws Exception {
        List<JmhResult> rows = ResultFile.read(SampleRuns.copy("sample-run", tmp).resolve("store.json")).results();
        StoreRows store = new StoreRows(rows);
        JmhResult fastestGet = store.atPoint("PeersSingleThread", "get").stream()
                .filter(r -> StoreCatalog.role(StoreRows.store(r)) == StoreCatalog.Role.PEER)
                .max(Comparator.comparingDouble(r -> r.primaryMetric().score())).orElseThrow();
        JmhResult leanest = store.atPoint("PeersSingleThread", "get").stream()
                .filter(r -> StoreCatalog.role(StoreRows.store(r)) == StoreCatalog.Role.PEER)
                .min(Comparator.comparingDouble(r -> StoreRows.secondary(r, StoreTables.DISK))).orElseThrow();

        String md = Headline.render(rows, "test machine", tmp.resolve("img"), "img").markdown(4);

        assertThat(md.lines().filter(l -> l.startsWith("| get, 1 thread |")).findFirst().orElseThrow())
                .contains("| " + StoreCatalog.label(StoreRows.store(fastestGet)) + " |")
                .contains(Table.score(fastestGet.primaryMetric().score()));
        assertThat(md.lines().filter(l -> l.startsWith("| disk bytes per key")).findFirst().orElseThrow())
                .contains("| " + StoreCatalog.label(StoreRows.store(leanest)) + " |");
    }

    @Test
    void aRowTheRunLacksSaysSo(@TempDir Path tmp) throws Exception {
        List<JmhResult> rows = ResultFile.read(SampleRuns.copy("sample-run", tmp).resolve("store.json")).results()
                .stream().filter(r -> !(StoreRows.cls(r).equals("PeersSingleThread") && r.methodName().equals("put")))
                .toList();

        String md = Headline.render(rows, "test machine", tmp.resolve("img"), "img").markdown(4);

        assertThat(md.lines().filter(l -> l.startsWith("| put, 1 thread |")))
                .hasSize(1).allSatisfy(l -> assertThat(l).endsWith("| not in this run |"));
    }

    /** A peer without a row: the best of the rest is not the best peer, so the row is not comparable. */
    @Test
    void aRowMissingAPeerIsNotComparable(@TempDir Path tmp) throws Exception {
        List<JmhResult> rows = ResultFile.read(SampleRuns.copy("sample-run", tmp).resolve("store.json")).results()
                .stream().filter(r -> !(r.methodName().equals("get") && "H2_MVSTORE".equals(StoreRows.store(r))))
                .toList();

        String md = Headline.render(rows, "test machine", tmp.resolve("img"), "img").markdown(4);

        assertThat(md.lines().filter(l -> l.startsWith("| get, 1 thread |")).findFirst().orElseThrow())
                .endsWith("| - | - | - | not comparable |");
        assertThat(md).contains("get, 1 thread: not comparable, no row of H2 MVStore at this point");
    }
}
