package io.caskbench.bench.junit;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.util.ListStatistics;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Checks what QuickThroughput computes and calls, never how fast anything is. */
class QuickThroughputTest {

    @Test
    void summaryIsTheMeanWithAStudentTConfidenceInterval() {
        double[] samples = {100, 110, 90, 105, 95};

        Score s = QuickThroughput.summarize("op", Map.of("k", "v"), samples);

        assertThat(s.score()).isEqualTo(100.0);
        // sd = sqrt(250 / 4) = 7.906; t(0.9995, 4 df) = 8.610; error = t * sd / sqrt(5)
        assertThat(s.error()).isCloseTo(8.610 * 7.906 / Math.sqrt(5), within(0.01));
        assertThat(s.error()).isEqualTo(new ListStatistics(samples).getMeanErrorAt(0.999));
        assertThat(s.unit()).isEqualTo("ops/s");
        assertThat(s.params()).containsEntry("k", "v");
    }

    @Test
    void fewerThanThreeRepetitionsHaveNoErrorEstimate() {
        assertThat(QuickThroughput.summarize("op", Map.of(), new double[] {42}).error()).isNaN();
        assertThat(QuickThroughput.summarize("op", Map.of(), new double[] {42, 43}).error()).isNaN();
        assertThatThrownBy(() -> QuickThroughput.summarize("op", Map.of(), new double[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void warmsUpThenMeasuresEveryCaseInterleavedAndFeedsTheBlackhole() {
        List<String> order = new ArrayList<>();
        long[] calls = new long[2];
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        ScoreTable table = QuickThroughput.create()
                .warmup(2, Duration.ofMillis(2))
                .measurement(3, Duration.ofMillis(2))
                .add("a", bh -> {
                    calls[0]++;
                    if (order.isEmpty() || !order.get(order.size() - 1).equals("a")) {
                        order.add("a");
                    }
                    bh.consume(calls[0]);
                })
                .add("b", Map.of("backend", "X"), bh -> {
                    calls[1]++;
                    if (!order.get(order.size() - 1).equals("b")) {
                        order.add("b");
                    }
                    bh.consume(new Object());
                })
                .printTo(new PrintStream(log, true, StandardCharsets.UTF_8))
                .run();

        // 2 warm-up + 3 measured iterations, each a then b
        assertThat(order).containsExactly("a", "b", "a", "b", "a", "b", "a", "b", "a", "b");
        assertThat(calls[0]).isPositive();
        assertThat(calls[1]).isPositive();
        assertThat(table.rows()).extracting(Score::label).containsExactly("a", "b{backend=X}");
        assertThat(table.rows()).allSatisfy(r -> {
            assertThat(r.score()).isPositive();
            assertThat(r.error()).isNotNaN();
            assertThat(r.unit()).isEqualTo("ops/s");
        });
        String printed = log.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("warm-up 2/2", "rep     3/3", "(99.9% CI)", "b{backend=X}");
    }

    @Test
    void aFailingOperationStopsTheRunWithItsName() {
        QuickThroughput run = QuickThroughput.create().printTo(null)
                .warmup(0, Duration.ofMillis(1))
                .measurement(1, Duration.ofMillis(1))
                .add("boom", bh -> {
                    throw new java.io.IOException("disk on fire");
                });

        assertThatThrownBy(run::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("operation boom failed after 0 calls")
                .hasRootCauseMessage("disk on fire");
    }

    @Test
    void rejectsEmptyRunsAndBadSettings() {
        assertThatThrownBy(() -> QuickThroughput.create().run()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> QuickThroughput.create().measurement(0, Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QuickThroughput.create().warmup(1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
