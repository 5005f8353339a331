package io.caskbench.bench.openloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;

/** The profiler names the metrics as the report reads them, in microseconds, per kind and for all. */
class OpenLoopProfilerTest {

    @Test
    void aMixedResultBecomesPercentilesPerKindAndForAllWithTheRates() {
        Histogram gets = new Histogram(3);
        Histogram puts = new Histogram(3);
        for (int i = 1; i <= 1_000; i++) {
            gets.recordValue(i * 1_000L); // 1 .. 1000 us
        }
        puts.recordValue(5_000_000L); // one put of 5 ms
        Map<OpType, Histogram> byType = new EnumMap<>(OpType.class);
        byType.put(OpType.GET, gets);
        byType.put(OpType.PUT, puts);
        OpenLoopResult result = new OpenLoopResult(byType, Map.of(), 2_000, 1_990, 0, 0.25, 61.5);

        Map<String, Result<?>> metrics = OpenLoopProfiler.results(result).stream()
                .collect(Collectors.toMap(Result::getLabel, Function.identity()));

        assertThat(metrics).containsKeys("p50", "p99", "p99.9", "max", "latency", "get:p50", "get:p99", "get:p99.9",
                "get:max", "get:latency", "put:p99", "put:max", "offered", "achieved", "unfinished");
        assertThat(metrics.get("get:p50").getScore()).isCloseTo(500, org.assertj.core.data.Offset.offset(1.0));
        assertThat(metrics.get("get:max").getScore()).isCloseTo(1_000, org.assertj.core.data.Offset.offset(1.0));
        assertThat(metrics.get("max").getScore()).isCloseTo(5_000, org.assertj.core.data.Offset.offset(5.0));
        assertThat(metrics.get("p50").getScoreUnit()).isEqualTo("us");
        assertThat(metrics.get("offered").getScore()).isEqualTo(2_000);
        assertThat(metrics.get("achieved").getScore()).isEqualTo(1_990);
        assertThat(metrics.get("get:count").getScore()).as("the samples a get percentile rests on").isEqualTo(1_000);
        assertThat(metrics.get("put:count").getScore()).isEqualTo(1);
        assertThat(metrics.get("count").getScore()).isEqualTo(1_001);
        assertThat(metrics.get("latency").getStatistics().getN()).isEqualTo(1_001);
        assertThat(metrics.get("latency").getStatistics().getPercentile(100)).isCloseTo(5_000,
                org.assertj.core.data.Offset.offset(10.0));
    }

    @Test
    void aResultOfOneKindHasOnlyTheUnprefixedPercentiles() {
        Histogram gets = new Histogram(3);
        gets.recordValue(2_000);
        OpenLoopResult result = new OpenLoopResult(Map.of(OpType.GET, gets), Map.of(), 10, 10, 0, 0, 0);
        assertThat(OpenLoopProfiler.results(result)).extracting(Result::getLabel)
                .containsExactly("p50", "p99", "p99.9", "max", "count", "latency", "offered", "achieved", "unfinished",
                        "spinCores", "spinAhead");
    }

    @Test
    void theHarnessPassIsPublishedBesideTheMeasuredPassUnderItsOwnNames() {
        Histogram gets = new Histogram(3);
        Histogram puts = new Histogram(3);
        for (int i = 1; i <= 100; i++) {
            gets.recordValue(i * 10_000L); // 10 .. 1000 us
            puts.recordValue(2_000_000L);
        }
        Histogram floor = new Histogram(3);
        for (int i = 1; i <= 1_000; i++) {
            floor.recordValue(i * 100L); // 0.1 .. 100 us
        }
        Map<OpType, Histogram> byType = new EnumMap<>(OpType.class);
        byType.put(OpType.GET, gets);
        byType.put(OpType.PUT, puts);
        OpenLoopResult harness = new OpenLoopResult(Map.of(OpType.GET, floor, OpType.PUT, new Histogram(3)), Map.of(),
                500, 499.5, 0, 0, 0);
        OpenLoopResult result = new OpenLoopResult(byType, Map.of(OpType.PUT, 3L), 500, 480, 0, 0.1, 60)
                .withHarness(harness);

        Map<String, Result<?>> metrics = OpenLoopProfiler.results(result).stream()
                .collect(Collectors.toMap(Result::getLabel, Function.identity()));

        assertThat(metrics).containsKeys("harness:p50", "harness:p99", "harness:p99.9", "harness:max", "harness:count",
                "harness:latency", "harness:achieved").doesNotContainKeys("harness:get:p99", "harness:offered");
        assertThat(metrics.get("harness:p50").getScore()).isCloseTo(50, org.assertj.core.data.Offset.offset(0.1));
        assertThat(metrics.get("harness:p99").getScore()).isCloseTo(99, org.assertj.core.data.Offset.offset(0.1));
        assertThat(metrics.get("harness:count").getScore()).isEqualTo(1_000);
        assertThat(metrics.get("harness:achieved").getScore()).isEqualTo(499.5);
        assertThat(metrics.get("harness:latency").getStatistics().getN()).isEqualTo(1_000);
        // The measured pass's own figures are unchanged by it, and its censored operations are counted.
        assertThat(metrics.get("p50").getScore()).isCloseTo(1_000, org.assertj.core.data.Offset.offset(1.0));
        assertThat(metrics.get("unfinished").getScore()).isEqualTo(3);
        assertThat(metrics.get("spinCores").getScore()).isEqualTo(0.1);
        assertThat(metrics.get("spinAhead").getScore()).isEqualTo(60);
    }

    @Test
    void aBenchmarkWithoutTheProfilerFailsInsteadOfLosingItsFigures() {
        // No iteration has run in this JVM with the profiler attached.
        assertThatThrownBy(OpenLoopProfiler::requireAttached).hasMessageContaining("-prof "
                + OpenLoopProfiler.class.getName());
    }
}
