package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The open-loop rows show every percentile pooled and per fork at each rate, judge a goal by every fork's own
 * value, and judge nothing when a fork fell behind the rate asked.
 */
class OpenLoopTablesTest {

    /** A scalar metric with one value per fork (one iteration each). */
    private static Metric perFork(double... values) {
        List<List<Double>> raw = java.util.Arrays.stream(values).mapToObj(v -> List.of(v)).toList();
        double mean = java.util.Arrays.stream(values).average().orElse(Double.NaN);
        return new Metric(mean, Double.NaN, List.of(), Map.of(), "us", raw);
    }

    /** A distribution metric whose pooled p50, p99 and p99.9 are given. */
    private static Metric pooled(double p50, double p99, double p999) {
        return new Metric(p50, Double.NaN, List.of(), Map.of("50.0", p50, "99.0", p99, "99.9", p999), "us/op",
                List.of());
    }

    /**
     * An open-loop row at {@code rate} whose forks achieved {@code achieved}, with every percentile of kind
     * {@code op} scaled from {@code p99s} (p50 a tenth, p99.9 twice, max four times), pooled from the forks' mean.
     */
    private static Map<String, Metric> kind(String op, double... p99s) {
        return sampled(op, 20_000, p99s);
    }

    /** {@link #kind(String, double...)} with {@code samples} operations of the kind in every fork. */
    private static Map<String, Metric> sampled(String op, double samples, double... p99s) {
        double mean = java.util.Arrays.stream(p99s).average().orElse(Double.NaN);
        Map<String, Metric> m = new HashMap<>();
        m.put(op + ":p50", perFork(java.util.Arrays.stream(p99s).map(v -> v / 10).toArray()));
        m.put(op + ":p99", perFork(p99s));
        m.put(op + ":p99.9", perFork(java.util.Arrays.stream(p99s).map(v -> v * 2).toArray()));
        m.put(op + ":max", perFork(java.util.Arrays.stream(p99s).map(v -> v * 4).toArray()));
        m.put(op + ":latency", pooled(mean / 10, mean, mean * 2));
        double[] counts = new double[p99s.length];
        java.util.Arrays.fill(counts, samples);
        m.put(op + ":count", perFork(counts));
        return m;
    }

    private static JmhResult row(String benchmark, Map<String, String> params, double rate, double[] achieved,
            Map<String, Metric> metrics) {
        Map<String, Metric> all = new HashMap<>(metrics);
        double[] offered = new double[achieved.length];
        java.util.Arrays.fill(offered, rate);
        all.put("offered", perFork(offered));
        all.put("achieved", perFork(achieved));
        all.put("unfinished", perFork(new double[achieved.length]));
        Map<String, String> p = new LinkedHashMap<>(params);
        p.put("rate", String.valueOf((long) rate));
        return new JmhResult("io.caskbench.bench.store." + benchmark, "ss", 1, achieved.length, null, null, p,
                Metric.of(8_000, Double.NaN, "ms/op"), all);
    }

    private static Map<String, Metric> mix(double[] getP99s, double[] putP99s) {
        Map<String, Metric> m = new HashMap<>(kind("get", getP99s));
        m.putAll(kind("put", putP99s));
        return m;
    }

    private static List<String> lines(List<JmhResult> rows, String start) {
        return LatencyTables.render(rows).text().lines().filter(l -> l.startsWith(start)).toList();
    }

    @Test
    void eachRateHasAGetAndAPutRowWithEveryPercentilePooledAndPerFork() {
        List<JmhResult> rows = List.of(
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 20_000, new double[] {20_000, 19_990},
                        mix(new double[] {10, 14}, new double[] {300, 500})),
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        mix(new double[] {8, 8}, new double[] {100, 100})));
        List<String> mapped = lines(rows, "MAPPED");
        assertThat(mapped).hasSize(4);
        // Rates ascending, get before put.
        assertThat(mapped.get(0)).contains("5,000").contains(" get ");
        assertThat(mapped.get(3)).contains("20,000").contains(" put ");
        // Put p99: pooled 400, forks 300 and 500; p99.9 pooled 800, forks 600 and 1,000; max the largest fork's.
        assertThat(mapped.get(3)).contains("400 (300 / 500)").contains("800 (600 / 1,000)")
                .contains("2,000 (1,200 / 2,000)").contains("met");
        assertThat(mapped.get(2)).contains("get").doesNotContain("met");
    }

    @Test
    void aPutGoalIsMetOnlyWhenEveryForkIsWithinIt() {
        List<JmhResult> rows = List.of(
                // p99.9 is twice p99: 1,600 and 3,000 against 5,000, met; p99 800 and 1,500 against 1,000, one fork over.
                row("MixedTailOpenLoop.mix", Map.of("backend", "FILE_CHANNEL"), 5_000, new double[] {5_000, 5_000},
                        mix(new double[] {1, 1}, new double[] {800, 1_500})),
                row("MixedTailOpenLoop.mix", Map.of("backend", "FILE_CHANNEL"), 20_000, new double[] {20_000, 20_000},
                        mix(new double[] {1, 1}, new double[] {3_000, 4_000})));
        List<String> puts = lines(rows, "FILE_CHANNEL").stream().filter(l -> l.contains(" put ")).toList();
        assertThat(puts.get(0)).contains("undetermined");
        assertThat(puts.get(1)).contains("not met");
    }

    @Test
    void aRowThatFellBehindTheRateAskedIsSaturatedAndJudgesNothing() {
        List<JmhResult> rows = List.of(row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 50_000,
                new double[] {50_000, 31_000}, mix(new double[] {1, 1}, new double[] {10, 10})));
        String put = lines(rows, "MAPPED").stream().filter(l -> l.contains(" put ")).findFirst().orElseThrow();
        assertThat(put).contains("31,000 (50,000 / 31,000), saturated").contains("saturated: no verdict")
                .doesNotContain(" met");
    }

    @Test
    void theHarnessRowsComeAfterTheStoresAndJudgeNothing() {
        List<JmhResult> rows = List.of(
                row("MixedTailOpenLoop.harness", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        mix(new double[] {70, 72}, new double[] {71, 75})),
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        mix(new double[] {80, 80}, new double[] {90, 90})));
        String text = LatencyTables.render(rows).text();
        assertThat(text.indexOf("harness alone")).isGreaterThan(text.indexOf("MAPPED "));
        assertThat(lines(rows, "harness alone")).hasSize(2).allSatisfy(l -> assertThat(l).doesNotContain("met"));
    }

    @Test
    void aMergesGetTailIsJudgedByItsRatioToTheSameRateWithoutOne() {
        List<JmhResult> rows = List.of(
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "NONE"), 10_000,
                        new double[] {10_000, 10_000, 10_000}, kind("get", 10, 10, 10)),
                // Pooled 12 over 10: 1.20; forks 11 to 13 over 10: spread 1.10-1.30, within 1.5, met.
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "BACK_TO_BACK"), 10_000,
                        new double[] {10_000, 10_000, 10_000}, kind("get", 11, 12, 13)),
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "NONE"), 50_000,
                        new double[] {50_000, 50_000, 50_000}, kind("get", 10, 10, 10)),
                // 10 to 20 over 10: 1.00-2.00 across the goal, undetermined.
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "BACK_TO_BACK"), 50_000,
                        new double[] {50_000, 50_000, 50_000}, kind("get", 10, 15, 20)));
        List<String> mapped = lines(rows, "MAPPED");
        assertThat(mapped).hasSize(4);
        assertThat(mapped.get(0)).contains("NONE").doesNotContain("met");
        assertThat(mapped.get(1)).contains("BACK_TO_BACK").contains("1.20 (1.10-1.30)").contains("met");
        assertThat(mapped.get(3)).contains("1.50 (1.00-2.00)").contains("undetermined");
    }

    /** 5,000 ops/s x 5% puts x 5 s: 1,250 puts per fork, enough for a p99 and not for a p99.9. */
    @Test
    void aPercentileIsJudgedOnlyWithTenSamplesBeyondItInEveryFork() {
        Map<String, Metric> enoughForP99 = new HashMap<>(sampled("get", 23_750, 1, 1));
        enoughForP99.putAll(sampled("put", 1_250, 800, 900));
        Map<String, Metric> tooFew = new HashMap<>(sampled("get", 9_500, 1, 1));
        tooFew.putAll(sampled("put", 500, 800, 900));
        List<JmhResult> rows = List.of(
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        enoughForP99),
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 2_000, new double[] {2_000, 2_000}, tooFew));
        List<String> puts = lines(rows, "MAPPED").stream().filter(l -> l.contains(" put ")).toList();
        assertThat(puts.get(1)).contains("5,000").contains("met, indicative (2 forks)")
                .contains("p99.9: too few samples (p99.9 needs 10,000 puts per fork)");
        assertThat(puts.get(0)).contains("2,000").contains("too few samples").contains("no verdict")
                .doesNotContain(" met").doesNotContain("undetermined");
        assertThat(OpenLoopRow.samplesNeeded("p99")).isEqualTo(1_000);
        assertThat(OpenLoopRow.samplesNeeded("p99.9")).isEqualTo(10_000);
    }

    @Test
    void aVerdictFromFewerThanFiveForksIsIndicative() {
        double[] five = {5_000, 5_000, 5_000, 5_000, 5_000};
        Map<String, Metric> fiveForks = new HashMap<>(kind("get", 1, 1, 1, 1, 1));
        fiveForks.putAll(kind("put", 100, 100, 100, 100, 100));
        List<JmhResult> rows = List.of(
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, five, fiveForks),
                row("MixedTailOpenLoop.mix", Map.of("backend", "FILE_CHANNEL"), 5_000, new double[] {5_000, 5_000, 5_000},
                        mix(new double[] {1, 1, 1}, new double[] {100, 100, 100})));
        assertThat(lines(rows, "MAPPED")).filteredOn(l -> l.contains(" put ")).singleElement().asString()
                .contains("met").doesNotContain("indicative");
        assertThat(lines(rows, "FILE_CHANNEL")).filteredOn(l -> l.contains(" put ")).singleElement().asString()
                .contains("met, indicative (3 forks)");
    }
}
