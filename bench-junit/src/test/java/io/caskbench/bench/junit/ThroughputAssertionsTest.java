package io.caskbench.bench.junit;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.caskbench.bench.junit.ThroughputAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deterministic: every score here is made up, nothing is timed. */
class ThroughputAssertionsTest {

    private static final String BENCH = "io.x.GetBench.";

    private static Score row(String method, String backend, String size, double score, double error) {
        return Score.of(BENCH + method, Map.of("backend", backend, "size", size), score, error, "ops/s");
    }

    /** MAPPED is 3x FILE_CHANNEL at size 100 and 1.2x at size 4096; put is half of get. */
    private static final ScoreTable TABLE = ScoreTable.of(
            row("get", "MAPPED", "100", 3_000_000, 100_000),
            row("get", "FILE_CHANNEL", "100", 1_000_000, 50_000),
            row("get", "MAPPED", "4096", 1_200_000, 300_000),
            row("get", "FILE_CHANNEL", "4096", 1_000_000, 300_000),
            row("put", "MAPPED", "100", 1_500_000, 100_000),
            row("put", "FILE_CHANNEL", "100", 500_000, 10_000),
            row("put", "MAPPED", "4096", 600_000, 100_000),
            row("put", "FILE_CHANNEL", "4096", 500_000, 10_000));

    @Test
    void absoluteFloorPassesWhenEverySelectedRowReachesIt() {
        assertThatCode(() -> assertThat(TABLE).benchmark("get").isAtLeast(1_000_000)).doesNotThrowAnyException();
        assertThatCode(() -> assertThat(TABLE).benchmark("get").where("backend", "MAPPED").isAtLeast(1_200_000))
                .doesNotThrowAnyException();
    }

    @Test
    void absoluteFloorFailureNamesTheSlowRowsAndShowsTheWholeTable() {
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("put").isAtLeast(550_000))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected at least 550,000.0 ops/s from put (mean score)")
                .hasMessageContaining("put{backend=FILE_CHANNEL, size=100} = 500,000.0 ± 10,000.0 ops/s")
                .hasMessageContaining("put{backend=FILE_CHANNEL, size=4096} = 500,000.0")
                .hasMessageNotContaining("put{backend=MAPPED")
                // the whole table, errors included, also the rows not asserted on
                .hasMessageContaining("Score table")
                .hasMessageContaining("3,000,000.000")
                .hasMessageContaining("± 300,000.000")
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage().lines()
                        .filter(l -> l.contains(BENCH))).hasSize(8));
    }

    @Test
    void floorBeyondErrorUsesTheLowerBound() {
        // 1.2M ± 0.3M: the mean passes 1M, the lower bound 0.9M does not
        assertThatCode(() -> assertThat(TABLE).benchmark("get").where("size", "4096").where("backend", "MAPPED")
                .isAtLeast(1_000_000)).doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(TABLE).beyondError().benchmark("get").where("size", "4096")
                .where("backend", "MAPPED").isAtLeast(1_000_000))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("lower bound 900,000.0");
    }

    /** The chain a user writes first: a parameter's value, then a floor. */
    @Test
    void aFloorReadsAfterAParameterAsItIsWritten() {
        assertThatCode(() -> assertThat(TABLE).benchmark("get").param("backend", "MAPPED").isAtLeast(1_000_000))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").param("backend", "MAPPED").where("size", "4096")
                .isAtLeast(1_500_000))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected at least 1,500,000.0 ops/s from get (mean score)")
                .hasMessageContaining("get{backend=MAPPED, size=4096} = 1,200,000.0");
    }

    @Test
    void relativeParamAssertionHoldsForEveryOtherParamCombination() {
        assertThatCode(() -> assertThat(TABLE).benchmark("get").param("backend", "MAPPED").isAtLeastTimes(1.1, "FILE_CHANNEL"))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").param("backend", "MAPPED").isAtLeastTimes(1.5, "FILE_CHANNEL"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected at least 1.50 x backend=FILE_CHANNEL (mean scores)")
                .hasMessageContaining("get{backend=MAPPED, size=4096} = 1,200,000.0 ± 300,000.0 ops/s is 1.20 x "
                        + "get{backend=FILE_CHANNEL, size=4096} = 1,000,000.0 ± 300,000.0 ops/s")
                .hasMessageNotContaining("size=100} = 3,000,000.0 ± 100,000.0 ops/s is")
                .hasMessageContaining("* io.x.GetBench.get");
    }

    @Test
    void relativeParamAssertionCanBeNarrowed() {
        assertThatCode(() -> assertThat(TABLE).benchmark("get").where("size", "100")
                .param("backend", "MAPPED").isAtLeastTimes(2.5, "FILE_CHANNEL")).doesNotThrowAnyException();
    }

    @Test
    void relativeBeyondErrorComparesPessimisticEnds() {
        // size 100: (3.0M - 0.1M) / (1.0M + 0.05M) = 2.76
        assertThatCode(() -> assertThat(TABLE).beyondError().benchmark("get").where("size", "100")
                .param("backend", "MAPPED").isAtLeastTimes(2.7, "FILE_CHANNEL")).doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(TABLE).beyondError().benchmark("get").where("size", "100")
                .param("backend", "MAPPED").isAtLeastTimes(2.8, "FILE_CHANNEL"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("is 2.76 x")
                .hasMessageContaining("beyond the 99.9% error");
    }

    @Test
    void relativeBenchmarkAssertionPairsRowsWithTheSameParams() {
        assertThatCode(() -> assertThat(TABLE).benchmark("get").isAtLeastTimes(1.5, "put")).doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").isAtLeastTimes(2.5, "put"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("get{backend=MAPPED, size=100} = 3,000,000.0 ± 100,000.0 ops/s is 2.00 x put{backend=MAPPED, size=100}");
    }

    @Test
    void missingRowsFailWithTheTable() {
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("scan"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("No score for benchmark scan")
                .hasMessageContaining("Score table");
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").where("backend", "LMDB"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("where {backend=LMDB}");
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").param("backend", "MAPPED").isAtLeastTimes(1, "LMDB"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("No single score to compare get{backend=MAPPED, size=100} with");
    }

    @Test
    void ambiguousShortNameFails() {
        ScoreTable two = ScoreTable.of(Score.of("a.One.get", 1, 0, "ops/s"), Score.of("a.Two.get", 1, 0, "ops/s"));

        assertThatThrownBy(() -> assertThat(two).benchmark("get"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ambiguous");
        assertThatCode(() -> assertThat(two).benchmark("Two.get").isAtLeast(1)).doesNotThrowAnyException();
    }

    @Test
    void unitsAreConvertedAndNonThroughputRowsRejected() {
        ScoreTable mixed = ScoreTable.of(Score.of("a.B.fast", 2, 0.1, "ops/ms"), Score.of("a.B.slow", 1000, 10, "ops/s"),
                Score.of("a.B.latency", 5, 1, "us/op"));

        assertThatCode(() -> assertThat(mixed).benchmark("fast").isAtLeastTimes(2, "slow").isAtLeast(2000))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(mixed).benchmark("latency"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("throughput assertions need ops/<time unit>");
    }

    @Test
    void missingErrorEstimateFailsOnlyBeyondError() {
        ScoreTable single = ScoreTable.of(Score.of("a.B.x", 10, Double.NaN, "ops/s"), Score.of("a.B.y", 1, 0.1, "ops/s"));

        assertThatCode(() -> assertThat(single).benchmark("x").isAtLeast(5).isAtLeastTimes(5, "y")).doesNotThrowAnyException();
        assertThatThrownBy(() -> assertThat(single).beyondError().benchmark("x").isAtLeast(5))
                .isInstanceOf(AssertionError.class).hasMessageContaining("no error estimate");
        assertThatThrownBy(() -> assertThat(single).beyondError().benchmark("x").isAtLeastTimes(5, "y"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("no error estimate");
    }

    @Test
    void rejectsMeaninglessBounds() {
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").isAtLeast(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").isAtLeastTimes(0, "put"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> assertThat(TABLE).benchmark("get").param("backend", "MAPPED")
                .isAtLeastTimes(Double.NaN, "FILE_CHANNEL")).isInstanceOf(IllegalArgumentException.class);
    }
}
