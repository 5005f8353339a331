package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.text.Document;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreTablesTest {

    private static final Map<String, String> POINT = Map.of("keyCount", "1000000", "valueSize", "100",
            "order", "RANDOM");

    /** A row with three forks whose means are {@code score * (1 - wobble)}, {@code score}, {@code score * (1 + wobble)}. */
    static JmhResult row(String cls, String method, String store, double score, double wobble,
            Map<String, Double> extra) {
        Map<String, String> params = new LinkedHashMap<>(POINT);
        params.put("store", store);
        List<List<Double>> raw = List.of(List.of(score * (1 - wobble)), List.of(score), List.of(score * (1 + wobble)));
        Map<String, Metric> secondary = new LinkedHashMap<>();
        extra.forEach((k, v) -> secondary.put(k, Metric.of(v, Double.NaN, "B/key")));
        return new JmhResult("io.caskbench.bench.store." + cls + "." + method, "thrpt", 1, 3, null, null, params,
                new Metric(score, score / 10, List.of(), Map.of(), "ops/s", raw), secondary);
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow();
    }

    /** The line of a store in a comparison table (not the summary, which has no error column). */
    private static String storeLine(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start) && l.contains("± ")).findFirst().orElseThrow();
    }

    @Test
    void ratiosWithTheirSpreadAgainstMappedBestPeerBoundAndOneThread() {
        List<JmhResult> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of(StoreTables.HEAP, 40.0,
                StoreTables.DISK, 170.0, StoreTables.INDEX, 30.0)));
        rows.add(row("PeersSingleThread", "get", "LMDB", 500_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "ROCKSDB", 250_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "CHRONICLE_MAP", 400_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "MAPDB", 300_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "H2_MVSTORE", 200_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "IN_MEMORY_REFERENCE", 4_000_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "CONCURRENT_HASH_MAP", 3_000_000, 0.05, Map.of()));
        rows.add(row("ThousandThreads", "get", "BITCASK_MAPPED", 3_000_000, 0.05, Map.of()));
        String text = StoreTables.render(rows, List.of("ThousandThreads.put store=X: stopped after 15 s")).text();

        // 2M against 500k: 4.00, spread from 1.9M/525k = 3.62 to 2.1M/475k = 4.42
        assertThat(storeLine(text, "LMDB")).contains("500,000", "0.25 (0.23-0.28)", "1.00 (0.90-1.11)");
        assertThat(storeLine(text, "BitCask MAPPED")).contains("2,000,000", "± 200,000", "3", "1.00 (0.90-1.11)",
                "4.00 (3.62-4.42)", "40.0", "170.0", "every acknowledged write");
        // The in-memory reference is read beside the stores: no ratio is taken against it, and no goal.
        assertThat(storeLine(text, "in-memory reference")).contains("2.00", "8.00", "nothing: memory only");
        assertThat(text).doesNotContain("bound").doesNotContain("ceiling").doesNotContain("x reference");
        assertThat(storeLine(text, "heap ConcurrentHashMap reference")).contains("1.50", "6.00");
        assertThat(text).contains("best peer: LMDB");
        assertThat(text.lines().filter(l -> l.startsWith("BitCask MAPPED") && l.contains("± ")).skip(1).findFirst()
                .orElseThrow())
                .contains("3,000,000", "1.50 (1.36-1.66)");
        assertThat(line(text, "get MAPPED / LMDB")).contains("4.00 (3.62-4.42)",
                "met: 4.00 times, the goal is at least 3.00 times (indicative, 3 forks)");
        assertThat(line(text, "get MAPPED / Chronicle Map")).contains(">= 1.50", "met: 5.00 times");
        assertThat(line(text, "1000-thread get / 1-thread get, MAPPED")).contains("1.50 (1.36-1.66)", ">= 1.80",
                "not met: 1.50 times");
        assertThat(line(text, "1000-thread put")).contains("not measured");
        assertThat(line(text, "key directory")).contains("30.0", "met: 30.0 bytes per key");
        // The sample puts have BitCask only: the put goal against the best peer needs every peer.
        assertThat(line(text, "put MAPPED / best peer")).contains("not measured");
        // The 1000-thread table has the kill -9 column too; it lacks every peer, so no best peer is named.
        assertThat(text.lines().filter(l -> l.startsWith("BitCask MAPPED") && l.contains("± ")).skip(1).findFirst()
                .orElseThrow()).endsWith("every acknowledged write");
        assertThat(text).contains("x best peer: not comparable, no row of RocksDB, LMDB, Chronicle Map, MapDB HTreeMap,"
                + " H2 MVStore at this shape");
        assertThat(text).contains("Stopped at the time limit", "ThousandThreads.put store=X: stopped after 15 s");
        assertThat(text).contains("no result").contains("CHRONICLE_MAP");
        assertThat(text).doesNotContain("WARNING");
        // the summary gives each figure with the half-range of its fork means
        assertThat(line(text, "LMDB")).startsWith("LMDB").contains("500,000 (±5%)");
        // the crash guarantee is a column of the peers table and of the summary, with a legend
        assertThat(storeLine(text, "LMDB")).endsWith("every acknowledged write");
        assertThat(line(text, "MapDB HTreeMap, commit per put")).contains("transactions on, a commit after every put");
    }

    @Test
    void theJdk22BackendIsMissedOnlyInARunThatCouldHaveRunIt() {
        JmhResult mapped = row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of());
        String on17 = StoreTables.render(List.of(onJdk(mapped, "17.0.15")), List.of()).text();
        String on25 = StoreTables.render(List.of(onJdk(mapped, "25.0.3")), List.of()).text();

        assertThat(line(on17, "no result")).contains("BITCASK_FILE_CHANNEL").doesNotContain("MEMORY_SEGMENT");
        assertThat(line(on25, "no result")).contains("BITCASK_FILE_CHANNEL", "BITCASK_MEMORY_SEGMENT");
        assertThat(StoreTables.feature("1.8.0_402")).isEqualTo(8);
        assertThat(StoreTables.feature("22-ea")).isEqualTo(22);
        assertThat(StoreTables.feature(null)).isZero();
    }

    /** {@code r} at {@code opsPerThread} operations per gang thread. */
    private static JmhResult gang(JmhResult r, String opsPerThread) {
        Map<String, String> params = new LinkedHashMap<>(r.params());
        params.put("opsPerThread", opsPerThread);
        return new JmhResult(r.benchmark(), r.mode(), r.threads(), r.forks(), r.jvm(), r.jdkVersion(), params,
                r.primaryMetric(), r.secondaryMetrics());
    }

    /**
     * The 1000-thread rows count at the operations per thread their run used, read from the rows: the suites
     * run 100 per thread, and a run with two shapes is read at the one most stores ran, never a mix.
     */
    @Test
    void thousandThreadRowsCountAtTheShapeTheirRunUsed() {
        List<JmhResult> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of()));
        rows.add(gang(row("ThousandThreads", "get", "BITCASK_MAPPED", 3_000_000, 0.05, Map.of()), "100"));
        rows.add(gang(row("ThousandThreads", "get", "LMDB", 1_000_000, 0.05, Map.of()), "100"));
        rows.add(gang(row("ThousandThreads", "get", "BITCASK_MAPPED", 9_000_000, 0.05, Map.of()), "1000"));
        StoreRows store = new StoreRows(rows);

        assertThat(store.atPoint("ThousandThreads", "get")).extracting(r -> r.params().get("opsPerThread"))
                .containsExactly("100", "100");
        assertThat(store.atPoint("ThousandThreads", "get", "BITCASK_MAPPED")).get()
                .extracting(r -> r.primaryMetric().score()).isEqualTo(3_000_000.0);
        Document doc = new Document();
        TargetTables.render(doc, store);
        assertThat(line(doc.text(), "1000-thread get / 1-thread get, MAPPED")).contains("1.50");
    }

    private static JmhResult onJdk(JmhResult r, String jdk) {
        return new JmhResult(r.benchmark(), r.mode(), r.threads(), r.forks(), r.jvm(), jdk, r.params(),
                r.primaryMetric(), r.secondaryMetrics());
    }

    @Test
    void aPutRowBelowItsLabelIsNotJudged() {
        List<JmhResult> rows = new ArrayList<>();
        JmhResult mapped = row("PeersSingleThread", "put", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of());
        rows.add(new JmhResult(mapped.benchmark(), mapped.mode(), 1, 3, null, null, mapped.params(),
                mapped.primaryMetric(), Map.of(StoreRows.KEYS_IN_STORE, Metric.of(800_000, Double.NaN, "keys"))));
        for (String peer : List.of("ROCKSDB", "LMDB", "CHRONICLE_MAP", "MAPDB", "H2_MVSTORE")) {
            rows.add(row("PeersSingleThread", "put", peer, 100_000, 0.05, Map.of()));
        }

        String text = StoreTables.render(rows, List.of()).text();

        // 0.8M keys held under a 1M label: the row times a smaller store, so the goal is not judged on it.
        assertThat(line(text, "put MAPPED / best peer")).contains("not measured").doesNotContain("met");
        assertThat(StoreRows.belowLabel(rows.get(0))).isTrue();
        assertThat(StoreRows.belowLabel(rows.get(1))).isFalse();
    }

    @Test
    void anInsertRoundFromAnEmptyStoreReachesItsLabelAtItsEnd() {
        JmhResult r = row("PeersSingleThread", "put", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of());
        Map<String, String> params = new LinkedHashMap<>(r.params());
        params.put("prefilled", "false");
        // Midway through rounds of 1M inserts into an empty store it holds 0.5M keys, and 1M at the end.
        JmhResult whole = new JmhResult(r.benchmark(), r.mode(), 1, 3, null, null, params, r.primaryMetric(),
                Map.of(StoreRows.KEYS_IN_STORE, Metric.of(500_000, Double.NaN, "keys")));
        JmhResult cut = new JmhResult(r.benchmark(), r.mode(), 1, 3, null, null, params, r.primaryMetric(),
                Map.of(StoreRows.KEYS_IN_STORE, Metric.of(400_000, Double.NaN, "keys")));
        assertThat(StoreRows.belowLabel(whole)).isFalse();
        assertThat(StoreRows.belowLabel(cut)).as("rounds cut short of every key").isTrue();
    }

    @Test
    void parityRowsStandBesideTheirPeerButAreNeverTheBestPeer() {
        List<JmhResult> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "put", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "put", "H2_MVSTORE", 200_000, 0.05, Map.of()));
        for (String peer : List.of("ROCKSDB", "LMDB", "CHRONICLE_MAP", "MAPDB")) {
            rows.add(row("PeersSingleThread", "put", peer, 100_000, 0.05, Map.of()));
        }
        rows.add(row("PeersSingleThread", "put", "H2_MVSTORE_COMMIT", 20_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "put", "MAPDB_TX", 900_000, 0.05, Map.of()));
        String text = StoreTables.render(rows, List.of()).text();

        assertThat(storeLine(text, "H2 MVStore, commit per put")).contains("20,000", "0.10 (0.09-0.11)",
                "every acknowledged write");
        assertThat(storeLine(text, "H2 MVStore   ")).contains("loses up to ~1 s of writes");
        // Every peer ran: the goal is judged against the fastest of them, never against a parity row.
        assertThat(line(text, "put MAPPED / best peer")).contains("10.00", "met: 10.00 times");
        // Without every peer the goal is not judged against the best of the rest.
        String subset = StoreTables.render(rows.subList(0, 2), List.of()).text();
        assertThat(line(subset, "put MAPPED / best peer")).contains(
                "not comparable: no row of RocksDB, LMDB, Chronicle Map, MapDB HTreeMap").doesNotContain("met");
        assertThat(text).contains("best peer: H2 MVStore\n");
        assertThat(text).doesNotContain("no result (not run in this profile, stopped, or failed: see below and the"
                + " JMH log): BITCASK_FILE_CHANNEL, ROCKSDB, LMDB, CHRONICLE_MAP, MAPDB, MAPDB_TX");
    }

    @Test
    void aRatioIsAWinOnlyOutsideItsSpreadAndNeverWithOneFork() {
        JmhResult a = row("PeersSingleThread", "get", "BITCASK_MAPPED", 1_100_000, 0.10, Map.of());
        JmhResult b = row("PeersSingleThread", "get", "CHRONICLE_MAP", 1_000_000, 0.10, Map.of());
        Spread close = Spread.of(a, b);
        assertThat(close.value()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(close.verdict(true)).isEqualTo(Spread.Verdict.UNDETERMINED);
        JmhResult c = row("PeersSingleThread", "get", "CHRONICLE_MAP", 500_000, 0.10, Map.of());
        assertThat(Spread.of(a, c).verdict(true)).isEqualTo(Spread.Verdict.WIN);
        assertThat(Spread.of(c, a).verdict(true)).isEqualTo(Spread.Verdict.LOSS);
        assertThat(Spread.of(c, a).verdict(false)).isEqualTo(Spread.Verdict.WIN);
        JmhResult oneFork = new JmhResult(a.benchmark(), "thrpt", 1, 1, null, null, a.params(),
                new Metric(5_000_000, Double.NaN, List.of(), Map.of(), "ops/s", List.of(List.of(5_000_000.0))), Map.of());
        Spread single = Spread.of(oneFork, c);
        assertThat(single.hasSpread()).isFalse();
        assertThat(single.verdict(true)).isEqualTo(Spread.Verdict.UNDETERMINED);
        assertThat(single.cell()).isEqualTo("10.00 (1 fork)");
    }

    @Test
    void warnsAtTheTopWhenTheHarnessCostsMoreThanAThirdOfTheCheapestStore() {
        List<JmhResult> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, 0, Map.of()));
        rows.add(row("PeersSingleThread", "get", "HARNESS", 5_000_000, 0, Map.of()));
        rows.add(row("PeersSingleThread", "put", "BITCASK_MAPPED", 2_000_000, 0, Map.of()));
        rows.add(row("PeersSingleThread", "put", "HARNESS", 7_000_000, 0, Map.of()));
        Document doc = StoreTables.render(rows, List.of());

        // get: the harness takes 200 ns of the cheapest store's 500 ns, more than a third
        assertThat(doc.text().lines().findFirst().orElseThrow()).startsWith("!! WARNING: PeersSingleThread get")
                .contains("200.0 ns", "500.0 ns", "BITCASK_MAPPED");
        // put: 143 ns of 500 ns is less than a third
        assertThat(doc.text()).doesNotContain("WARNING: PeersSingleThread put");
        assertThat(storeLine(doc.text(), "harness only, no store")).contains("5,000,000");
        assertThat(line(doc.text(), "harness only, no store")).contains("5,000,000", "7,000,000");
        assertThat(doc.markdown(3)).startsWith("> **Warning:** PeersSingleThread get");
    }

    @Test
    void backendsAndTheReferenceExperiment() {
        List<JmhResult> rows = new ArrayList<>();
        for (String backend : List.of("MAPPED", "FILE_CHANNEL")) {
            rows.add(new JmhResult("io.caskbench.bench.store.BitCaskSingleThread.put", "thrpt", 1, 1, null, null,
                    Map.of("backend", backend, "keyCount", "100000", "valueSize", "100", "order", "SEQUENTIAL"),
                    Metric.of(backend.equals("MAPPED") ? 1_000_000 : 250_000, Double.NaN, "ops/s"), Map.of()));
        }
        rows.add(new JmhResult("io.caskbench.bench.store.SeedWorkload.singlePut", "thrpt", 1, 1, null, null,
                Map.of("store", "BITCASK_MAPPED", "workload", "SEED"), Metric.of(680_080.5, 1000, "ops/s"), Map.of()));
        rows.add(new JmhResult("io.caskbench.bench.store.SeedWorkload.threadsGet", "thrpt", 1, 1, null, null,
                Map.of("store", "BITCASK_MAPPED", "workload", "SEED"), Metric.of(2_000_000, 1000, "ops/s"), Map.of()));
        String text = StoreTables.render(rows, List.of()).text();

        assertThat(line(text, "put    100000")).contains("1,000,000", "250,000", "0.25");
        assertThat(line(text, "1M puts, 1 thread")).contains("1,360,161", "680,081", "0.50");
        // The reference's "concurrent read" called put: our get is never divided by it.
        assertThat(line(text, "1000 threads x 1000 gets *")).contains("4,703,809", "2,000,000", "\u2014")
                .doesNotContain("0.43");
        assertThat(text).contains("called put").doesNotContain("Stopped at the time limit");
        assertThat(text).contains("FILE_CHANNEL against MAPPED").doesNotContain("MEMORY_SEGMENT");
    }

    @Test
    void aRunOnJdk22AddsMemorySegmentAgainstMapped() {
        List<JmhResult> rows = new ArrayList<>();
        Map<String, Integer> scores = Map.of("MAPPED", 1_000_000, "FILE_CHANNEL", 250_000, "MEMORY_SEGMENT", 900_000);
        for (String backend : List.of("MAPPED", "FILE_CHANNEL", "MEMORY_SEGMENT")) {
            rows.add(new JmhResult("io.caskbench.bench.store.BitCaskSingleThread.get", "thrpt", 1, 1, null, null,
                    Map.of("backend", backend, "keyCount", "100000", "valueSize", "100", "order", "RANDOM"),
                    Metric.of(scores.get(backend), Double.NaN, "ops/s"), Map.of()));
        }
        String text = StoreTables.render(rows, List.of()).text();

        assertThat(text).contains("FILE_CHANNEL and MEMORY_SEGMENT against MAPPED", "MS / MAPPED");
        assertThat(line(text, "get    100000")).contains("1,000,000", "250,000", "0.25", "900,000", "0.90");
    }

    @Test
    void sensitivityRowsStandAgainstTheirPeersOwnRowNotInTheMainTables() {
        List<JmhResult> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "LMDB", 500_000, 0.05, Map.of()));
        for (String peer : List.of("ROCKSDB", "CHRONICLE_MAP", "MAPDB", "H2_MVSTORE")) {
            rows.add(row("PeersSingleThread", "get", peer, 100_000, 0.05, Map.of()));
        }
        rows.add(row("PeersSingleThread", "get", "LMDB_RENEW_100", 1_000_000, 0.05, Map.of()));
        rows.add(row("PeersSingleThread", "get", "LMDB_TXN_REUSED", 520_000, 0.05, Map.of()));
        String text = StoreTables.render(rows, List.of()).text();

        assertThat(line(text, "PeersSingleThread.get")).contains("LMDB, read transaction renewed every 100 gets",
                "1,000,000", "2.00 (1.81-2.21)", "faster");
        assertThat(text.lines().filter(l -> l.contains("one read transaction kept")).findFirst().orElseThrow())
                .contains("1.04 (0.94-1.15)", "undetermined (indicative, 3 forks)");
        // not a row of the peers table, and never the best peer
        assertThat(text).contains("best peer: LMDB\n");
        assertThat(text.lines().filter(l -> l.startsWith("LMDB, read"))).isEmpty();
    }
}
