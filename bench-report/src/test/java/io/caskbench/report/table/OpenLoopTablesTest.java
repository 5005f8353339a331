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
 * value, judge nothing when a fork did not keep up with the rate asked, judge no percentile at the harness
 * floor of the same forks, and each is followed by its forks' harness passes.
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
        return row(benchmark, params, rate, achieved, new double[achieved.length], metrics);
    }

    /** {@link #row(String, Map, double, double[], Map)} whose forks left {@code unfinished} operations unstarted. */
    private static JmhResult row(String benchmark, Map<String, String> params, double rate, double[] achieved,
            double[] unfinished, Map<String, Metric> metrics) {
        Map<String, Metric> all = new HashMap<>(metrics);
        double[] offered = new double[achieved.length];
        java.util.Arrays.fill(offered, rate);
        all.put("offered", perFork(offered));
        all.put("achieved", perFork(achieved));
        all.put("unfinished", perFork(unfinished));
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

    /** {@code metrics} with each fork's harness pass, its percentiles scaled from {@code p99s} as {@link #kind} does. */
    private static Map<String, Metric> withHarness(Map<String, Metric> metrics, double... p99s) {
        Map<String, Metric> m = new HashMap<>(metrics);
        m.putAll(kind("harness", p99s));
        double[] achieved = new double[p99s.length];
        java.util.Arrays.fill(achieved, 5_000);
        m.put("harness:achieved", perFork(achieved));
        return m;
    }

    /** {@code metrics} with two forks' spin figures, as a driver that censors unstarted operations reports. */
    private static Map<String, Metric> withSpin(Map<String, Metric> metrics) {
        Map<String, Metric> m = new HashMap<>(metrics);
        m.put("spinCores", perFork(0.05, 0.05));
        return m;
    }

    /** {@code metrics} with two forks' harness passes whose p99 is {@code p99} and p99.9 {@code p999} in both. */
    private static Map<String, Metric> withFloor(Map<String, Metric> metrics, double p99, double p999) {
        Map<String, Metric> m = withHarness(metrics, p99, p99);
        m.put("harness:p99.9", perFork(p999, p999));
        m.put("harness:latency", pooled(p99 / 10, p99, p999));
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
    void aRowThatDidNotKeepUpShowsItsAchievedRateAndJudgesNothing() {
        List<JmhResult> rows = List.of(row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 50_000,
                new double[] {50_000, 31_000}, mix(new double[] {1, 1}, new double[] {10, 10})));
        String put = lines(rows, "MAPPED").stream().filter(l -> l.contains(" put ")).findFirst().orElseThrow();
        assertThat(put).contains("31,000 (50,000 / 31,000), did not keep up").contains("did not keep up: no verdict")
                .doesNotContain(" met");
    }

    @Test
    void achievedWithinRoundingKeepsUpButOperationsLeftUnstartedDoNot() {
        List<JmhResult> rows = List.of(
                // 0.5% short: the last operation completing past the period, not a queue.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {4_975, 5_000},
                        mix(new double[] {1, 1}, new double[] {10, 10})),
                // 1.5% short.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 20_000, new double[] {19_700, 20_000},
                        mix(new double[] {1, 1}, new double[] {10, 10})),
                // The rate was reached, yet 12 operations were never started: censored into the tail and counted.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 50_000, new double[] {50_000, 50_000},
                        new double[] {0, 12}, withSpin(mix(new double[] {1, 1}, new double[] {10, 10}))),
                // The same from a driver that left them out of the percentiles (no spin figures): said so.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 60_000, new double[] {60_000, 60_000},
                        new double[] {0, 12}, mix(new double[] {1, 1}, new double[] {10, 10})));
        List<String> puts = lines(rows, "MAPPED").stream().filter(l -> l.contains(" put ")).toList();
        assertThat(puts.get(0)).contains("4,975 (4,975 / 5,000) ").contains("met").doesNotContain("keep up");
        assertThat(puts.get(1)).contains("19,700 (19,700 / 20,000), did not keep up")
                .contains("did not keep up: no verdict");
        assertThat(puts.get(2)).contains("50,000 (50,000 / 50,000), did not keep up, 12 censored")
                .contains("did not keep up: no verdict");
        assertThat(puts.get(3)).contains("60,000 (60,000 / 60,000), did not keep up, 12 never started (not in the "
                + "percentiles)");
    }

    @Test
    void eachRowIsFollowedByItsForksHarnessPassesWhichJudgeNothing() {
        List<JmhResult> rows = List.of(
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        withHarness(mix(new double[] {80, 80}, new double[] {900, 900}), 30, 50)),
                row("MixedTailOpenLoop.mix", Map.of("backend", "FILE_CHANNEL"), 5_000, new double[] {5_000, 5_000},
                        withHarness(mix(new double[] {80, 80}, new double[] {900, 900}), 20, 20)));
        List<String> lines = LatencyTables.render(rows).text().lines()
                .filter(l -> l.startsWith("MAPPED") || l.startsWith("FILE_CHANNEL") || l.startsWith("harness only"))
                .toList();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).startsWith("FILE_CHANNEL").contains(" get ");
        assertThat(lines.get(2)).startsWith("harness only").contains(" all ").contains("20.0 (20.0 / 20.0)")
                .doesNotContain("met").doesNotContain("at the harness floor");
        assertThat(lines.get(5)).startsWith("harness only").contains("40.0 (30.0 / 50.0)");
        assertThat(LatencyTables.render(rows).text()).contains("\"harness only\": the harness pass each fork ran");
    }

    @Test
    void aRunWithoutHarnessPassesSaysSoOnceAndInventsNoFloor() {
        List<JmhResult> rows = List.of(
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        mix(new double[] {80, 80}, new double[] {900, 900})),
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 20_000, new double[] {20_000, 20_000},
                        mix(new double[] {80, 80}, new double[] {900, 900})));
        String text = LatencyTables.render(rows).text();
        assertThat(lines(rows, "harness only")).singleElement().asString().contains("harness floor: not in this run");
        assertThat(text).doesNotContain("at the harness floor,").doesNotContain(", at the harness floor");
        assertThat(lines(rows, "MAPPED")).filteredOn(l -> l.contains(" put ")).allSatisfy(l -> assertThat(l)
                .contains("met"));
    }

    @Test
    void aPercentileWithinTwiceItsHarnessFloorIsMarkedAndJudgesNoGoal() {
        List<JmhResult> rows = List.of(
                // Put p99 900 against a harness p99 of 500, p99.9 1,800 against 1,000: both within 2x, nothing judged.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 5_000, new double[] {5_000, 5_000},
                        withFloor(mix(new double[] {80, 80}, new double[] {900, 900}), 500, 1_000)),
                // Put p99 900 against 500, at the floor; p99.9 1,800 against 500, above it: judged alone, met.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 20_000, new double[] {20_000, 20_000},
                        withFloor(mix(new double[] {80, 80}, new double[] {900, 900}), 500, 500)),
                // Put p99 1,200 against 200: far above the floor, judged, and over the 1,000 goal.
                row("MixedTailOpenLoop.mix", Map.of("backend", "MAPPED"), 50_000, new double[] {50_000, 50_000},
                        withFloor(mix(new double[] {80, 80}, new double[] {1_200, 1_200}), 200, 400)));
        List<String> puts = lines(rows, "MAPPED").stream().filter(l -> l.contains(" put ")).toList();
        assertThat(puts.get(0)).contains("900 (900 / 900), at the harness floor")
                .contains("1,800 (1,800 / 1,800), at the harness floor")
                .contains("p99, p99.9: at the harness floor: no verdict").doesNotContain(" met");
        assertThat(puts.get(1)).contains("900 (900 / 900), at the harness floor")
                .contains("1,800 (1,800 / 1,800) ").contains("met, indicative (2 forks); p99: at the harness floor");
        assertThat(puts.get(2)).doesNotContain("at the harness floor").contains("not met");
        // The gets' p50 of 8 against the harness's 20, 50 and 120: at the floor in every row, and marked so.
        assertThat(lines(rows, "MAPPED")).filteredOn(l -> l.contains(" get "))
                .allSatisfy(l -> assertThat(l).contains("8.00 (8.00 / 8.00), at the harness floor"));
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

    @Test
    void aMergeRatioNeedsBothRowsKeptUpAndAboveTheirHarnessFloor() {
        double[] three = {10_000, 10_000, 10_000};
        List<JmhResult> rows = List.of(
                // Without a merge: get p99 10 against a harness p99 of 8, at the floor.
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "NONE"), 10_000, three,
                        withHarness(kind("get", 10, 10, 10), 8, 8, 8)),
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "BACK_TO_BACK"), 10_000, three,
                        withHarness(kind("get", 40, 40, 40), 8, 8, 8)),
                // Without a merge, far above the floor; with one, a fork fell behind.
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "NONE"), 20_000,
                        new double[] {20_000, 20_000, 20_000}, withHarness(kind("get", 50, 50, 50), 8, 8, 8)),
                row("MergeTailOpenLoop.rw", Map.of("backend", "MAPPED", "merge", "BACK_TO_BACK"), 20_000,
                        new double[] {20_000, 12_000, 20_000}, withHarness(kind("get", 60, 60, 60), 8, 8, 8)));
        List<String> lines = LatencyTables.render(rows).text().lines()
                .filter(l -> l.startsWith("MAPPED") || l.startsWith("harness only")).toList();
        assertThat(lines).hasSize(8);
        assertThat(lines.get(1)).startsWith("harness only").contains("NONE");
        assertThat(lines.get(2)).contains("BACK_TO_BACK").contains("get p99 at the harness floor")
                .contains("no verdict").doesNotContain(" met").doesNotContain("4.00 (4.00-4.00)");
        assertThat(lines.get(6)).contains("did not keep up: 12,000 of 20,000 ops/s").contains("no verdict")
                .doesNotContain("1.20 (");
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
