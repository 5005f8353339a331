package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The latency comparison judges each target by every fork's own percentile, never by the whole run's alone. */
class LatencyTablesTest {

    /** A metric whose three forks (one iteration each) scored {@code score} times each factor. */
    private static Metric forks(double score, double... factors) {
        List<List<Double>> raw = java.util.Arrays.stream(factors).mapToObj(f -> List.of(score * f)).toList();
        return new Metric(score, Double.NaN, List.of(), Map.of(), "us/op", raw);
    }

    /** A group result with the members' means and percentiles as JMH names them. */
    private static JmhResult group(String benchmark, Map<String, String> params, Map<String, Metric> metrics) {
        return new JmhResult("io.caskbench.bench.store." + benchmark, "sample", 64, 3, null, null,
                new LinkedHashMap<>(params), forks(1, 1, 1, 1), new HashMap<>(metrics));
    }

    @Test
    void theClosedLoopMergeRowJudgesPutThroughputButNotItsGetPercentile() {
        List<JmhResult> rows = List.of(
                group("MergeLatency.rw", Map.of("backend", "MAPPED", "merge", "NONE"),
                        Map.of("get:p0.99", forks(10, 1, 1, 1), "put", forks(2, 1, 1, 1))),
                // get p99 forks 12, 12, 18 against 10: 1.40, spread 1.20-1.80 across the 1.5 goal. Put mean time
                // 1.1x: throughput 0.91, met.
                group("MergeLatency.rw", Map.of("backend", "MAPPED", "merge", "BACK_TO_BACK"),
                        Map.of("get:p0.99", forks(12, 1, 1, 1.5), "put", forks(2.2, 1, 1, 1))));
        String text = LatencyTables.render(rows).text();
        String line = text.lines().filter(l -> l.startsWith("MAPPED")).findFirst().orElseThrow();
        assertThat(line).contains("1.40 (1.20-1.80)").contains("0.91 (0.91-0.91)").contains("yes")
                .doesNotContain("within spread").doesNotContain("NO");
        assertThat(text).contains("get p99 us, merge (closed loop)").contains("judges no goal");
    }

    @Test
    void theUnpacedMergeGetsARowOfItsOwnAgainstTheSameRunWithoutMerge() {
        List<JmhResult> rows = List.of(
                group("MergeLatency.rw", Map.of("backend", "FILE_CHANNEL", "merge", "NONE"),
                        Map.of("get:p0.99", forks(10, 1, 1, 1), "put", forks(2, 1, 1, 1))),
                group("MergeLatency.rw", Map.of("backend", "FILE_CHANNEL", "merge", "BACK_TO_BACK"),
                        Map.of("get:p0.99", forks(11, 1, 1, 1), "put", forks(2.2, 1, 1, 1))),
                // Mean put time doubled: throughput 0.50, not met.
                group("MergeLatency.rw", Map.of("backend", "FILE_CHANNEL", "merge", "BACK_TO_BACK_UNPACED"),
                        Map.of("get:p0.99", forks(30, 1, 1, 1), "put", forks(4, 1, 1, 1))));
        List<String> lines = LatencyTables.render(rows).text().lines().filter(l -> l.startsWith("FILE_CHANNEL")).toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("FILE_CHANNEL ").contains("1.10 (1.10-1.10)").contains("0.91 (0.91-0.91)");
        assertThat(lines.get(1)).startsWith("FILE_CHANNEL, unpaced").contains("3.00 (3.00-3.00)").contains("NO")
                .contains("0.50 (0.50-0.50)");
        // The get ratio of 3.00 judges nothing: the only verdict is the put throughput's.
        assertThat(lines.get(1).split("NO", -1)).hasSize(2);
    }

    @Test
    void aClosedLoopTailIsLabelledAndJudgesNoGoal() {
        List<JmhResult> rows = List.of(harness(2), group("MixedTail.mix", Map.of("backend", "FILE_CHANNEL"), Map.of(
                "put:p0.50", forks(20, 1, 1, 1),
                "put:p0.99", forks(800, 1, 1, 1.5),
                "put:p0.999", forks(4_000, 1, 1, 1),
                "get:p0.99", forks(9, 1, 1, 1))));
        String text = LatencyTables.render(rows).text();
        String line = text.lines().filter(l -> l.startsWith("FILE_CHANNEL")).findFirst().orElseThrow();
        assertThat(line).startsWith("FILE_CHANNEL (closed loop)").contains("933 (800-1,200)")
                .contains("4,000 (4,000-4,000)").contains("none: closed loop").doesNotContain("yes")
                .doesNotContain("NO").doesNotContain("met");
        assertThat(text.lines().filter(l -> l.startsWith("harness only (closed loop)")).findFirst().orElseThrow())
                .contains("0.400 (0.300-0.600)");
        assertThat(text).contains("Rows without a figure are measured by the latency suite");
    }

    /** A harness row whose put p99.9 is 0.3 us in two forks and {@code 0.3 * middleFork} in the middle one. */
    private static JmhResult harness(double middleFork) {
        return group("MixedTail.harness", Map.of("backend", "MAPPED"), Map.of(
                "harnessPut:p0.50", forks(0.05, 1, 1, 1),
                "harnessPut:p0.99", forks(0.1, 1, 1, 1),
                "harnessPut:p0.999", forks(0.3, 1, middleFork, 1),
                "harnessGet:p0.99", forks(0.2, 1, 1, 1)));
    }

    @Test
    void aMissingHalfLeavesTheRowWithoutAVerdict() {
        List<JmhResult> rows = List.of(group("MergeLatency.rw", Map.of("backend", "MAPPED", "merge", "NONE"),
                Map.of("get:p0.99", forks(10, 1, 1, 1), "put", forks(2, 1, 1, 1))));
        String line = LatencyTables.render(rows).text().lines().filter(l -> l.startsWith("MAPPED")).findFirst()
                .orElseThrow();
        assertThat(line).doesNotContain("yes").doesNotContain("NO");
    }
}
