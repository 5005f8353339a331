package io.caskbench.report.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads real JMH 1.37 output (real-jmh-1.37.json: a throwaway benchmark run with -rf json, with
 * throughput, average-time and sample modes, parameters and an aux counter), so the model is checked
 * against what JMH writes rather than against what we think it writes.
 */
class JmhJsonTest {

    @Test
    void readsEveryFieldTheReportUses(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("demo.json");
        try (InputStream in = getClass().getResourceAsStream("/real-jmh-1.37.json")) {
            Files.copy(in, file);
        }
        List<JmhResult> rows = ResultFile.read(file).results();
        assertThat(rows).hasSize(6);

        JmhResult get = rows.get(0);
        assertThat(get.benchmark()).isEqualTo("demo.DemoBenchmark.get");
        assertThat(get.shortName()).isEqualTo("DemoBenchmark.get");
        assertThat(get.mode()).isEqualTo("thrpt");
        assertThat(get.forks()).isEqualTo(1);
        assertThat(get.jdkVersion()).isEqualTo("17.0.15");
        assertThat(get.params()).containsExactly(java.util.Map.entry("backend", "MAPPED"), java.util.Map.entry("size", "16"));
        assertThat(get.primaryMetric().scoreUnit()).isEqualTo("ops/s");
        assertThat(get.primaryMetric().score()).isPositive();
        assertThat(get.primaryMetric().scoreConfidence()).hasSize(2);
        assertThat(get.primaryMetric().scorePercentiles()).containsKeys("0.0", "50.0", "100.0");
        assertThat(get.primaryMetric().rawData()).hasSize(1);
        assertThat(get.primaryMetric().rawData().get(0)).hasSize(3);
        assertThat(get.higherIsBetter()).isTrue();

        JmhResult put = rows.get(2);
        assertThat(put.mode()).isEqualTo("avgt");
        assertThat(put.primaryMetric().scoreUnit()).isEqualTo("ns/op");
        assertThat(put.higherIsBetter()).isFalse();

        JmhResult sample = rows.get(4);
        assertThat(sample.mode()).isEqualTo("sample");
        assertThat(sample.secondaryMetrics()).containsKey("evicted");
        assertThat(sample.secondaryMetrics().get("evicted").score()).isPositive();
    }

    @Test
    void readsNonFiniteNumbersAsJmhSpellsThem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("x.json");
        Files.writeString(file, """
                [{"benchmark":"a.B.c","mode":"ss","primaryMetric":{"score":1.5,"scoreError":"NaN",
                  "scoreConfidence":["-INF","+INF"],"scoreUnit":"s/op"}}]
                """);
        Metric m = ResultFile.read(file).results().get(0).primaryMetric();
        assertThat(m.hasError()).isFalse();
        assertThat(m.scoreConfidence()).containsExactly(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }
}
