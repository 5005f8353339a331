package io.caskbench.report.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The open-loop rules at their edges: twice the floor is at it, a run without a floor has none, 1% short of the
 * rate asked is rounding and more is not, and one operation never started is enough not to have kept up.
 */
class OpenLoopRuleTest {

    @Test
    void aPercentileUpToTwiceItsHarnessFloorIsAtIt() {
        assertThat(OpenLoopRule.atFloor(100, 50)).isTrue();
        assertThat(OpenLoopRule.atFloor(40, 50)).isTrue();
        assertThat(OpenLoopRule.atFloor(100.1, 50)).isFalse();
        // A run without harness passes has no floor to be at, and an absent percentile is at none.
        assertThat(OpenLoopRule.atFloor(1, Double.NaN)).isFalse();
        assertThat(OpenLoopRule.atFloor(Double.NaN, 50)).isFalse();
    }

    @Test
    void keepingUpAllowsARoundingAndNoUnstartedOperation() {
        assertThat(OpenLoopRule.keptUp(50, List.of(49.5, 50.0), List.of(0.0, 0.0))).isTrue();
        assertThat(OpenLoopRule.keptUp(50, List.of(49.4, 50.0), List.of(0.0, 0.0))).isFalse();
        assertThat(OpenLoopRule.keptUp(50, List.of(50.0, 50.0), List.of(0.0, 1.0))).isFalse();
        // A run from before the driver counted unfinished operations is judged by its rates alone.
        assertThat(OpenLoopRule.keptUp(50, List.of(50.0), List.of())).isTrue();
        assertThat(OpenLoopRule.notKeptUp(24.29, 50, 5, true)).isEqualTo("did not keep up: 24.3 of 50.0 ops/s, 5 censored");
        assertThat(OpenLoopRule.notKeptUp(31_000, 50_000, 0, true)).isEqualTo("did not keep up: 31,000 of 50,000 ops/s");
        // A run whose driver left them out of the percentiles says so.
        assertThat(OpenLoopRule.notKeptUp(24.29, 50, 5, false))
                .isEqualTo("did not keep up: 24.3 of 50.0 ops/s, 5 never started (not in the percentiles)");
    }
}
