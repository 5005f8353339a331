package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.ResultRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreSummaryTest {

    private static final Map<String, String> POINT = Map.of("keyCount", "1000000", "valueSize", "100",
            "order", "RANDOM");

    private static ResultRow row(String cls, String method, String store, double score, Map<String, Double> extra) {
        Map<String, String> params = new java.util.TreeMap<>(POINT);
        params.put("store", store);
        if (cls.equals("ThousandThreads")) {
            params.put("opsPerThread", "1000");
        }
        return new ResultRow(cls, method, params, 1, score, score / 10, "ops/s", extra);
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow();
    }

    @Test
    void ratiosAgainstMappedBestPeerAndOneThread() {
        List<ResultRow> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, Map.of(Footprint.HEAP, 40.0,
                Footprint.DISK, 170.0, Footprint.INDEX, 30.0)));
        rows.add(row("PeersSingleThread", "get", "LMDB", 500_000, Map.of()));
        rows.add(row("PeersSingleThread", "get", "ROCKSDB", 250_000, Map.of()));
        rows.add(row("PeersSingleThread", "get", "IN_MEMORY_BOUND", 4_000_000, Map.of()));
        rows.add(row("PeersSingleThread", "get", "CONCURRENT_HASH_MAP", 3_000_000, Map.of()));
        rows.add(row("ThousandThreads", "get", "BITCASK_MAPPED", 3_000_000, Map.of()));
        String text = StoreSummary.render(rows, List.of("ThousandThreads.put store=X: stopped after 15 s"));

        assertThat(line(text, "BITCASK_MAPPED       "))
                .contains("2,000,000", "± 200,000", "1.00", "4.00", "40.0", "170.0");
        assertThat(line(text, "LMDB")).contains("500,000", "0.25", "1.00");
        assertThat(line(text, "IN_MEMORY_BOUND")).contains("(the bound: a store's copies, no file)", "2.00", "8.00");
        assertThat(line(text, "CONCURRENT_HASH_MAP")).contains("(heap ConcurrentHashMap reference)", "1.50", "0.75");
        assertThat(line(text, "LMDB")).contains("0.13");
        assertThat(text).contains("best peer: LMDB");
        // 1000 threads against the same store on one thread
        assertThat(text.lines().filter(l -> l.startsWith("BITCASK_MAPPED")).skip(1).findFirst().orElseThrow())
                .contains("3,000,000", "1.50");
        assertThat(line(text, "P1 get MAPPED / LMDB")).contains("4.00", "yes");
        assertThat(line(text, "P1 get MAPPED / in-memory bound")).contains("0.50", "yes");
        assertThat(line(text, "P3 1000-thread get")).contains("1.50", "yes");
        assertThat(line(text, "P3 1000-thread put")).contains("not measured");
        assertThat(line(text, "P6")).contains("30.0", "yes");
        assertThat(text).contains("Stopped at the time limit", "ThousandThreads.put store=X: stopped after 15 s");
        assertThat(text).contains("no result").contains("CHRONICLE_MAP");
    }

    @Test
    void backendsAndSeedTables() {
        List<ResultRow> rows = new ArrayList<>();
        for (String backend : List.of("MAPPED", "FILE_CHANNEL")) {
            rows.add(new ResultRow("BitCaskSingleThread", "put", Map.of("backend", backend, "keyCount", "100000",
                    "valueSize", "100", "order", "SEQUENTIAL"), 1, backend.equals("MAPPED") ? 1_000_000 : 250_000,
                    Double.NaN, "ops/s", Map.of()));
        }
        rows.add(new ResultRow("SeedWorkload", "singlePut", Map.of("store", "BITCASK_MAPPED", "workload", "SEED"), 1,
                680_080.5, 1000, "ops/s", Map.of()));
        String text = StoreSummary.render(rows, List.of());

        assertThat(line(text, "put    100000")).contains("1,000,000", "250,000", "0.25");
        assertThat(line(text, "1M puts, 1 thread")).contains("1,360,161", "680,081", "0.50");
        assertThat(line(text, "1000 threads x 1000 gets *")).contains("4,703,809");
        assertThat(text).contains("called put").doesNotContain("Stopped at the time limit");
    }

    @Test
    void warnsAtTheTopWhenTheHarnessCostsMoreThanAThirdOfTheCheapestStore() {
        List<ResultRow> rows = new ArrayList<>();
        rows.add(row("PeersSingleThread", "get", "BITCASK_MAPPED", 2_000_000, Map.of()));
        rows.add(row("PeersSingleThread", "get", "HARNESS", 5_000_000, Map.of()));
        rows.add(row("PeersSingleThread", "put", "BITCASK_MAPPED", 2_000_000, Map.of()));
        rows.add(row("PeersSingleThread", "put", "HARNESS", 7_000_000, Map.of()));
        String text = StoreSummary.render(rows, List.of());

        // get: the harness takes 200 ns of the cheapest store's 500 ns, more than a third
        assertThat(text.lines().findFirst().orElseThrow()).startsWith("!! WARNING: PeersSingleThread get")
                .contains("200.0 ns", "500.0 ns", "BITCASK_MAPPED");
        // put: 143 ns of 500 ns is less than a third
        assertThat(text).doesNotContain("WARNING: PeersSingleThread put");
        assertThat(line(text, "HARNESS")).contains("(harness only, no store)");
    }
}
