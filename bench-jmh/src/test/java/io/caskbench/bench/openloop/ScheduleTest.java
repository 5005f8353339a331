package io.caskbench.bench.openloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A schedule asks for exactly the operations its rate gives, evenly spaced over all threads. */
class ScheduleTest {

    @Test
    void operationIIsDueAtTheOriginPlusIIntervalsWithNoDrift() {
        // 3 operations per microsecond over 7 threads: an interval of 2333.33 ns, not a whole number.
        Schedule s = Schedule.forThread(1_000, 3_000_000, 7, 0);
        assertThat(s.due(0)).isEqualTo(1_000);
        assertThat(s.due(3)).isEqualTo(1_000 + 7_000);
        assertThat(s.due(3_000_000)).isEqualTo(1_000 + 7_000_000_000L);
    }

    @Test
    void theThreadsTogetherArriveEvenlySpaced() {
        int threads = 4;
        List<Long> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Schedule s = Schedule.forThread(0, 4_000, threads, t);
            for (int i = 0; i < 100; i++) {
                all.add(s.due(i));
            }
        }
        all.sort(null);
        for (int k = 0; k < all.size(); k++) {
            assertThat(all.get(k)).as("arrival %d", k).isEqualTo(k * 250_000L);
        }
    }

    @Test
    void countBetweenMatchesCountingOneByOne() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            Schedule s = new Schedule(random.nextInt(1_000), 1 + random.nextDouble() * 5_000);
            long from = random.nextInt(200_000);
            long to = from + random.nextInt(200_000);
            long counted = 0;
            for (long i = 0; s.due(i) < to; i++) {
                if (s.due(i) >= from) {
                    counted++;
                }
            }
            assertThat(s.countBetween(from, to)).as("seed %d, round %d, %s [%d, %d)", seed, round, s, from, to)
                    .isEqualTo(counted);
        }
    }

    @Test
    void aScheduleNeedsAPositiveRate() {
        assertThatThrownBy(() -> Schedule.forThread(0, 0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schedule.forThread(0, 10, 2, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
