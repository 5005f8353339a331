package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** bench-shm's tables say only what the rows show: every backing against C with its spread, and the loop-overhead caveat. */
class ShmTablesTest {

    private static JmhResult ns(String benchmark, String region, String backing, double score) {
        Map<String, String> params = new LinkedHashMap<>();
        if (backing != null) {
            params.put("backing", backing);
        }
        params.put("region", region);
        return new JmhResult(benchmark, "avgt", 1, 3, null, null, params, new Metric(score, Double.NaN, List.of(),
                Map.of(), "ns/op", List.of(List.of(score * 0.97), List.of(score), List.of(score * 1.03))), Map.of());
    }

    @Test
    void namesEveryBackingAgainstCAndSaysWhenTheGeneratorHidesTheStore() {
        List<JmhResult> rows = new ArrayList<>();
        String c = "io.caskbench.shm.c.RegionAnchor.";
        String w = "io.caskbench.shm.RandomWriteBench.absolutePut";
        for (String backing : List.of("disk", "shm", "anon")) {
            rows.add(ns(c + "write", "64KiB", backing, 1.70));
            rows.add(ns(c + "write", "256MiB", backing, 6.5));
        }
        rows.add(ns(c + "prng", "64KiB", "anon", 1.65));
        rows.add(ns(c + "prng", "256MiB", "anon", 1.70));
        rows.add(ns(w, "64KiB", "disk", 1.72));
        rows.add(ns(w, "64KiB", "direct", 3.40));
        rows.add(ns(w, "256MiB", "direct", 6.6));
        rows.add(ns("io.caskbench.shm.HeapArrayBench.arrayStore", "64KiB", null, 2.6));
        String text = ShmTables.render(rows, OptionalLong.of(32L << 20)).text();

        assertThat(text).contains("== Random 1-byte write, region 64KiB", "The region is 1/512 of the L3 cache (32 MiB)",
                "The region is 8.0x the L3 cache (32 MiB)");
        assertThat(text).contains("put(i,b) / C write, per backing: disk 1.01 (0.95-1.07) (no difference from C shown,"
                + " indicative); direct 2.00 (1.88-2.12) (slower than C, indicative); byte[] 1.53 (1.44-1.62) (slower"
                + " than C, indicative).");
        // 1.65 of 1.70 ns per write is the generator: the 64 KiB row compares loop overheads; at 256 MiB it does not
        assertThat(text.lines().filter(l -> l.contains("compares loop overheads")).count()).isEqualTo(1);
        assertThat(text).contains("generator's dependency chain takes 97% of C's time per write");
    }
}
