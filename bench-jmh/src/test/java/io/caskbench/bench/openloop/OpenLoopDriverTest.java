package io.caskbench.bench.openloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The driver times from the intended start, so a stall shows as every operation it delayed; it keeps its
 * schedule exactly, also when its parks wake late; it stops by itself when it cannot keep up, and counts
 * what it never started in the tail; and its harness pass runs first, on the same schedule.
 */
class OpenLoopDriverTest {

    private static final long MS = 1_000_000L;

    /** One thread at 1000 ops/s (1 ms apart) for 1 s, each operation taking {@code nanosOf(i)} of the fake clock. */
    private static OpenLoopResult oneThread(FakeClock clock, java.util.function.LongUnaryOperator nanosOf) {
        AtomicInteger n = new AtomicInteger();
        OpenLoopSettings settings = OpenLoopSettings.builder().threads(1).rate(1_000).measure(Duration.ofSeconds(1))
                .build();
        return OpenLoopDriver.run(settings, (t, type) -> {
            clock.advance(nanosOf.applyAsLong(n.getAndIncrement()));
            return 1;
        }, clock);
    }

    @Test
    void aStallOf100MsAtA1MsIntervalDelaysAbout100SamplesNotOne() {
        FakeClock clock = new FakeClock();
        // Operation 300 stalls for 100 ms; every other one takes 10 us.
        OpenLoopResult result = oneThread(clock, i -> i == 300 ? 100 * MS : 10_000);
        Histogram h = result.histogram(OpType.GET);

        assertThat(result.count()).isEqualTo(1_000);
        long over1ms = h.getTotalCount() - h.getCountBetweenValues(0, MS);
        long over50ms = h.getTotalCount() - h.getCountBetweenValues(0, 50 * MS);
        // The 100 operations due during the stall each wait for it: 100.01 ms, 99.02 ms, ... down to 1 ms.
        assertThat(over1ms).isBetween(99L, 101L);
        assertThat(over50ms).isBetween(49L, 52L);
        assertThat(result.percentileMicros(100)).isBetween(99_990.0, 100_200.0);
        // A closed-loop timer would have seen one slow operation in a thousand: p99 would be 10 us.
        assertThat(result.percentileMicros(OpType.GET, 99)).isGreaterThan(1_000.0);
        assertThat(result.percentileMicros(OpType.GET, 50)).isBetween(9.9, 10.1);
        assertThat(result.unfinished()).isZero();
    }

    @Test
    void eachOperationStartsExactlyWhenItIsDue() {
        FakeClock clock = new FakeClock();
        List<Long> starts = new ArrayList<>();
        OpenLoopSettings settings = OpenLoopSettings.builder().threads(1).rate(3_000)
                .warmup(Duration.ofMillis(100)).measure(Duration.ofMillis(200)).build();
        OpenLoopResult result = OpenLoopDriver.run(settings, (t, type) -> {
            starts.add(clock.nanoTime());
            clock.advance(1_000);
            return 0;
        }, clock);

        // 0.3 s at 3000 ops/s: 900 operations, 333,333.3 ns apart from the first, each rounded to the nearest nanosecond.
        assertThat(starts).hasSize(900);
        long origin = starts.get(0);
        for (int i = 0; i < starts.size(); i++) {
            assertThat(starts.get(i) - origin).as("start of operation %d", i).isEqualTo(Math.round(i * 1e9 / 3_000));
        }
        // Only the 600 due in the measured period are recorded, each 1 us after it was due.
        assertThat(result.count()).isEqualTo(600);
        assertThat(result.percentileMicros(100)).isEqualTo(1.0);
        assertThat(result.offered()).isEqualTo(3_000);
        assertThat(result.achieved()).isCloseTo(3_000, org.assertj.core.data.Offset.offset(1.0));
        assertThat(result.sink()).isZero();
    }

    @Test
    void aRunThatCannotKeepUpStopsAfterTheGraceAndCensorsWhatItLeftIntoTheTail() {
        FakeClock clock = new FakeClock();
        // 5 ms per operation at 1 ms intervals: it can do a fifth of what is asked.
        OpenLoopResult result = oneThread(clock, i -> 5 * MS);

        // 1 s measured plus 1 s of grace: 400 operations done (each started when the last ended), the other 600
        // of the 1000 due never started.
        assertThat(result.unfinished()).isEqualTo(600);
        assertThat(result.unfinished(OpType.GET)).isEqualTo(600);
        assertThat(result.achieved()).isEqualTo(200.0);
        assertThat(result.offered()).isEqualTo(1_000);
        // Each is in the histogram at the grace's end minus its due time: operation 400, due at 0.4 s, at 1.6 s;
        // operation 999 at 1.001 s. Operation i done waited i x 4 ms + 5 ms: from operation 249, 1.001 s or more.
        // The median, the 500th: 249 done under 1.001 s, then the 251st of the rest, about 1.201 s.
        assertThat(result.count()).isEqualTo(1_000);
        Histogram h = result.histogram();
        assertThat(h.getCountBetweenValues(1_001 * MS, 1_601 * MS)).isEqualTo(600 + 151);
        assertThat(result.percentileMicros(50)).isCloseTo(1_201_000, org.assertj.core.data.Offset.offset(2_000.0));
    }

    @Test
    void operationsStartOnTimeWhenEveryParkWakesLate() {
        // Every park wakes 60 us late, as Linux's timer slack makes it; the wait learns to spin ahead of it.
        FakeClock clock = new FakeClock(60_000);
        List<Long> starts = new ArrayList<>();
        OpenLoopSettings settings = OpenLoopSettings.builder().rate(1_000).warmup(Duration.ofMillis(10))
                .measure(Duration.ofMillis(300)).build();
        OpenLoopResult result = OpenLoopDriver.run(settings, (t, type) -> {
            starts.add(clock.nanoTime());
            clock.advance(2_000);
            return 0;
        }, clock);

        // The first wait spins a quarter of the 100 us cap ahead and starts 35 us late; from then on, on time.
        assertThat(starts).hasSize(310);
        long origin = starts.get(0) - 35_000;
        for (int i = 1; i < starts.size(); i++) {
            assertThat(starts.get(i) - origin).as("start of operation %d", i).isEqualTo(i * MS);
        }
        assertThat(result.percentileMicros(100)).isEqualTo(2.0);
        assertThat(result.spinAheadMicros()).isBetween(60.0, 61.0);
        assertThat(result.spinCores()).isPositive();

        // Parked only, each operation starts 60 us late and is timed so.
        FakeClock parking = new FakeClock(60_000);
        OpenLoopResult parked = OpenLoopDriver.run(OpenLoopSettings.builder().rate(1_000).measure(Duration.ofMillis(300))
                .spinAhead(Duration.ZERO).build(), (t, type) -> {
                    parking.advance(2_000);
                    return 0;
                }, parking);
        assertThat(parked.percentileMicros(0)).isCloseTo(62.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(parked.spinCores()).isZero();
    }

    @Test
    void theHarnessPassRunsFirstOnTheSameScheduleWithAOneMicrosecondOperation() {
        FakeClock clock = new FakeClock(60_000);
        List<Long> calls = new ArrayList<>();
        OpenLoopSettings settings = OpenLoopSettings.builder().rate(2_000).warmup(Duration.ofMillis(50))
                .measure(Duration.ofMillis(100)).build();
        OpenLoopResult result = OpenLoopDriver.runWithHarness(settings, (t, type) -> {
            calls.add(clock.nanoTime());
            clock.advance(10_000);
            return 1;
        }, clock);

        OpenLoopResult harness = result.harness().orElseThrow();
        // The same 300 due times (100 warm-up, 200 measured), each operation 1 us and none of them the measured one.
        assertThat(harness.count()).isEqualTo(200);
        assertThat(harness.percentileMicros(0)).isEqualTo(1.0);
        assertThat(harness.percentileMicros(100)).isEqualTo(1.0);
        assertThat(harness.offered()).isEqualTo(2_000);
        assertThat(harness.harness()).isEmpty();
        assertThat(calls).hasSize(300);
        assertThat(result.count()).isEqualTo(200);
        assertThat(result.percentileMicros(100)).isCloseTo(10.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(result.sink()).isEqualTo(300);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threadsShareTheRateAndRecordExactlyTheOperationsDueInTheMeasuredPeriod() {
        OpenLoopSettings settings = OpenLoopSettings.builder().threads(4).rate(2_000)
                .mix(OperationMix.withPutShare(0.5)).warmup(Duration.ofMillis(100)).measure(Duration.ofMillis(300))
                .grace(Duration.ofSeconds(20)).build();
        AtomicInteger[] perThread = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        OpenLoopResult result = OpenLoopDriver.run(settings, (t, type) -> {
            perThread[t].incrementAndGet();
            return type == OpType.PUT ? 1 : 0;
        });

        assertThat(result.unfinished()).isZero();
        assertThat(result.count()).isEqualTo(600);
        assertThat(result.count(OpType.GET) + result.count(OpType.PUT)).isEqualTo(600);
        assertThat(result.count(OpType.GET)).isPositive();
        assertThat(result.count(OpType.PUT)).isPositive();
        // 0.4 s at 500 ops/s each, warm-up included: 200 operations per thread.
        for (AtomicInteger n : perThread) {
            assertThat(n.get()).isEqualTo(200);
        }
        assertThat(result.types()).containsExactly(OpType.GET, OpType.PUT);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aFailingOperationStopsTheRunAndIsRethrown() {
        OpenLoopSettings settings = OpenLoopSettings.builder().threads(3).rate(3_000).measure(Duration.ofSeconds(30))
                .build();
        AtomicInteger n = new AtomicInteger();
        assertThatThrownBy(() -> OpenLoopDriver.run(settings, (t, type) -> {
            if (n.incrementAndGet() == 50) {
                throw new java.io.IOException("disk gone");
            }
            return 0;
        })).isInstanceOf(IllegalStateException.class).hasRootCauseMessage("disk gone");
    }

    @Test
    void settingsRefuseARunWithoutARate() {
        assertThatThrownBy(() -> OpenLoopSettings.builder().build()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> OpenLoopSettings.builder().measure(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
