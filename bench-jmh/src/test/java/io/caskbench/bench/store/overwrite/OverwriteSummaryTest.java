package io.caskbench.bench.store.overwrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The summary figures from a synthetic time series. */
class OverwriteSummaryTest {

    @Test
    void aLongRunComparesItsLastMinuteWithItsFirst() {
        List<IntervalSample> samples = new ArrayList<>();
        for (int s = 1; s <= 180; s++) {
            long puts = s <= 60 ? 1_000 : s > 120 ? 700 : 50; // the middle minute does not count
            samples.add(sample(s, 1, puts, 1.0 + s / 1000.0, 3 * s * 100L, s * 100L, s / 10, -1));
        }
        Map<String, Double> m = OverwriteSummary.of(samples, latencies(1_000, 2_000), latencies(500), 0, -1, 0,
                null);
        assertThat(m.get("throughputLastOverFirstMinute")).isCloseTo(0.7, within(1e-9));
        assertThat(m.get("throughputRunOverFirstMinute")).isCloseTo((60 * 1_000 + 60 * 50 + 60 * 700) / 180.0 / 1_000,
                within(1e-9));
        assertThat(m.get("spaceAmpMax")).isCloseTo(1.18, within(1e-9));
        assertThat(m.get("spaceAmpMean")).isCloseTo(1.0905, within(1e-9));
        assertThat(m.get("writeAmp")).isCloseTo(3.0, within(1e-9));
        assertThat(m.get("compactions")).isEqualTo(18.0);
        assertThat(m).doesNotContainKey("compactionMillis").doesNotContainKey("longestCompactionMillis")
                .doesNotContainKey("largestCompactionBytes").doesNotContainKey("compactionInputBound");
        assertThat(m.get("put:p99")).isCloseTo(2_000, within(2.0));
        assertThat(m.get("get:p50")).isCloseTo(500, within(1.0));
        assertThat(m.get("p50")).isCloseTo(1_000, within(1.0)); // 100 gets at 0.5 ms, 100 puts each at 1 and 2 ms
        assertThat(m.get("max")).isCloseTo(2_000, within(2.0));
        assertThat(m.get("offered")).isZero();
        // Full speed: no operation is due, so none is left unstarted, and there is no harness pass.
        assertThat(m).doesNotContainKey("unfinished").doesNotContainKey("harness:p99");
    }

    @Test
    void aShortRunComparesItsHalves() {
        List<IntervalSample> samples = List.of(sample(0.5, 0.5, 100, 1, 0, 10, 0, 0),
                sample(1.0, 0.5, 100, 1, 0, 10, 0, 0), sample(1.5, 0.5, 50, 1, 0, 10, 0, 0),
                sample(2.0, 0.5, 50, 1, 0, 10, 1, 7));
        assertThat(OverwriteSummary.lastOverFirst(samples)).isCloseTo(0.5, within(1e-9));
        assertThat(OverwriteSummary.runOverFirst(samples)).isCloseTo(0.75, within(1e-9));
        Map<String, Double> m = OverwriteSummary.of(samples, latencies(1), latencies(), 2000, 1L << 30, 3,
                latencies(60));
        assertThat(m.get("compactionMillis")).isEqualTo(7.0);
        assertThat(m.get("longestCompactionMillis")).isEqualTo(7.0);
        assertThat(m.get("largestCompactionBytes")).isEqualTo(4096.0);
        assertThat(m.get("compactionInputBound")).isEqualTo((double) (1L << 30));
        // At a fixed rate: the operations never started, and the harness pass's floor beside the percentiles.
        assertThat(m.get("unfinished")).isEqualTo(3.0);
        assertThat(m.get("harness:p99")).isCloseTo(60, within(0.1));
        assertThat(m.get("harness:p50")).isCloseTo(60, within(0.1));
    }

    private static IntervalSample sample(double second, double seconds, long puts, double spaceAmp, long device,
            long app, long compactions, long millis) {
        return new IntervalSample(second, puts, 0, seconds, 1, 2, Double.NaN, Math.round(spaceAmp * 1_000_000),
                1_000_000, device, app, compactions, millis, compactions == 0 ? -1 : millis,
                millis < 0 ? -1 : 4096);
    }

    private static Histogram latencies(long... micros) {
        Histogram h = new Histogram(3);
        for (long us : micros) {
            for (int i = 0; i < 100; i++) {
                h.recordValue(us * 1_000);
            }
        }
        return h;
    }
}
