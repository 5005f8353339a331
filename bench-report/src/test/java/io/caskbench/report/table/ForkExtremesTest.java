package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The ends of a row's fork values, which the latency and open-loop tables share. */
class ForkExtremesTest {

    @Test
    void theSmallestAndLargestForkValueOrNaNWithoutAny() {
        List<Double> forks = List.of(12.0, 9.5, 30.0);
        assertThat(ForkExtremes.min(forks)).isEqualTo(9.5);
        assertThat(ForkExtremes.max(forks)).isEqualTo(30.0);
        assertThat(ForkExtremes.min(List.of())).isNaN();
        assertThat(ForkExtremes.max(List.of())).isNaN();
    }
}
