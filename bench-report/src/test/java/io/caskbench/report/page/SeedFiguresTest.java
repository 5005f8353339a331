package io.caskbench.report.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seed experiments find their rows by class and method, wherever the benchmark's package is. */
class SeedFiguresTest {

    @Test
    void aSeedFigureFindsItsRowInCommittedAndMovedPackages() {
        SeedFigures.Entry put = SeedFigures.load().stream().filter(e -> e.id().equals("002-put-1t")).findFirst().orElseThrow();
        for (String name : new String[] {"io.caskbench.bench.store.SeedWorkload.singlePut",
            "io.caskbench.bench.store.threads.SeedWorkload.singlePut"}) {
            JmhResult row = JmhResult.of(name, "thrpt", Map.of("store", "BITCASK_MAPPED"), Metric.of(1e6, 0, "ops/s"));
            assertThat(put.ours().get(0).matches("seed", row)).as(name).isTrue();
        }
        JmhResult other = JmhResult.of("io.caskbench.bench.store.threads.SeedWorkload.singleGet", "thrpt",
                Map.of("store", "BITCASK_MAPPED"), Metric.of(1e6, 0, "ops/s"));
        assertThat(put.ours().get(0).matches("seed", other)).isFalse();
    }

    @Test
    void everyPatternNamesAClassAndMethodNotAPackage() {
        for (SeedFigures.Entry e : SeedFigures.load()) {
            for (var list : java.util.List.of(e.ours(), e.numerator(), e.denominator())) {
                for (SeedFigures.Match m : list) {
                    assertThat(m.benchmark()).as(e.id()).startsWith("\\.").doesNotContain("caskbench");
                }
            }
        }
    }
}
