package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.log.WriteLimit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The write stall's decisions on exact figures: the store's figures are handed in by the test as the
 * debt daemon would hand them, the clock is the test's, and a pause moves it (and may run what a merge
 * would do meanwhile). No real time passes and no thread waits.
 */
class WriteStallTest {

    private static final long MIB = 1 << 20;
    private static final long SEGMENT = 4 * MIB;
    private static final long TIMEOUT = 60_000_000_000L;
    /** Live bytes of every case: with a bound of 2 and a trigger of 0.3, the limits below. */
    private static final long LIVE = 100 * MIB;
    private static final long HARD = 2 * LIVE + SEGMENT;
    private static final long COMFORTABLE = (long) (LIVE / 0.7) + SEGMENT;
    private static final long SOFT = COMFORTABLE + (HARD - COMFORTABLE) / 2;

    /** A stall over a fake clock; each pause moves the clock and then runs {@code duringPause}. */
    private static final class Fake {
        final WriteLimit limit = new WriteLimit();
        final List<Long> pauses = new ArrayList<>();
        long now = 1_000_000_000L;
        boolean stopped;
        /** The log's reserved end, as the stall reads it. */
        long reserved;
        /** What a fresh round of the debt daemon does, when a refused write asks for one. */
        Runnable refresh = () -> {
        };
        Runnable duringPause = () -> {
        };
        final WriteStall stall;

        Fake(double maxAmplification) {
            stall = new WriteStall(new SpaceBound(maxAmplification, 0.3, SEGMENT), limit, TIMEOUT, "/data/s",
                    () -> stopped, () -> reserved, () -> refresh.run(), () -> now, nanos -> {
                        pauses.add(nanos);
                        now += nanos;
                        duringPause.run();
                    });
        }

        Fake() {
            this(2.0);
        }

        long pausedNanos() {
            return pauses.stream().mapToLong(Long::longValue).sum();
        }
    }

    @Test
    void theLimitsLieWhereTheBoundSays() {
        SpaceBound.Level l = new SpaceBound(2.0, 0.3, SEGMENT).level(LIVE, 150 * MIB);
        assertThat(l.hard()).isEqualTo(HARD);
        assertThat(l.comfortable()).isEqualTo(COMFORTABLE);
        assertThat(l.soft()).isEqualTo(SOFT);
        assertThat(l.debt()).isEqualTo(150 * MIB - COMFORTABLE);
        assertThat(new SpaceBound(2.0, 0.3, SEGMENT).level(LIVE, COMFORTABLE).debt()).isZero();
        assertThat(new SpaceBound(1.2, 0.3, SEGMENT).level(LIVE, 0).soft()).as("the comfortable level never passes the bound")
                .isEqualTo((long) (1.2 * LIVE) + SEGMENT);
        assertThat(new SpaceBound(Double.POSITIVE_INFINITY, 0.3, SEGMENT).level(LIVE, Long.MAX_VALUE / 2).overSoft()).isFalse();
        assertThatThrownBy(() -> new SpaceBound(1.0, 0.3, SEGMENT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void underTheSoftLimitWritesPassAndTheLimitIsTheRoomUnderTheBound() {
        Fake f = new Fake();
        f.stall.update(5_000, LIVE, SOFT);

        assertThat(f.stall.engaged()).isFalse();
        assertThat(f.stall.restAllowed()).isTrue();
        assertThat(f.stall.admit(100, 0)).isZero();
        assertThat(f.pauses).isEmpty();
        assertThat(f.limit.get()).as("reserved when sampled plus the room under the hard limit").isEqualTo(5_000 + HARD - SOFT);
        assertThat(f.stall.debtBytes()).isEqualTo(SOFT - COMFORTABLE);
        assertThat(f.stall.stalledWrites()).isZero();
    }

    @Test
    void pastTheSoftLimitWritesAreLetThroughAtTheDelayedRate() {
        Fake f = new Fake();
        f.stall.update(0, LIVE, SOFT + 1);
        assertThat(f.stall.stage()).isEqualTo(WriteStall.DELAY);
        assertThat(f.stall.restAllowed()).as("merges run flat out").isFalse();
        assertThat((double) f.stall.delayedRate()).as("no merge measured yet")
                .isCloseTo(WriteStall.INITIAL_RATE, within(0.001 * WriteStall.INITIAL_RATE));

        long start = f.now;
        int writes = 10_000;
        for (int i = 0; i < writes; i++) {
            f.stall.admit(1000, 0);
        }
        double expected = writes * 1000 * 1e9 / f.stall.delayedRate(); // about 0.6 s
        assertThat((double) (f.now - start)).as("the writes took their bytes at the rate, less the burst")
                .isCloseTo(expected - WriteStall.BURST_NANOS, within(1_000.0 * writes));
        assertThat(f.stall.stallNanos()).isEqualTo(f.pausedNanos()).isEqualTo(f.now - start);
        assertThat(f.stall.stalledWrites()).isPositive().isLessThanOrEqualTo(writes);
    }

    @Test
    void theDelayedRateIsWhatMergesReclaimAtTheSoftLimitFallingToAQuarterAtTheHardLimitNeverZero() {
        Fake f = new Fake();
        f.stall.merged(40 * MIB, 2_000_000_000L);
        f.stall.merged(20 * MIB, 2_000_000_000L); // 15 MiB/s over the window
        f.stall.update(0, LIVE, SOFT + 1);
        assertThat((double) f.stall.delayedRate()).isCloseTo(15 * MIB, within(0.01 * MIB));

        f.stall.update(0, LIVE, HARD);
        assertThat((double) f.stall.delayedRate()).isCloseTo(15 * MIB * WriteStall.DEEPEST_SHARE, within(0.01 * MIB));

        for (int i = 0; i < WriteStall.WINDOW; i++) {
            f.stall.merged(0, 1_000_000_000L); // merges that reclaim nothing
        }
        f.stall.update(0, LIVE, SOFT + 1);
        assertThat(f.stall.delayedRate()).isEqualTo(WriteStall.MIN_RATE);
    }

    @Test
    void pastTheHardLimitAWriteWaitsUntilAMergeBringsTheStoreBackUnder() {
        Fake f = new Fake();
        f.stall.update(0, LIVE, HARD + MIB);
        assertThat(f.stall.stage()).isEqualTo(WriteStall.STOP);
        assertThat(f.limit.get()).as("every reservation refused").isNegative();
        int[] rounds = {0};
        f.duringPause = () -> {
            if (++rounds[0] == 3) {
                f.stall.merged(HARD - SOFT, 1_000_000_000L);
                f.stall.update(0, LIVE, SOFT - MIB); // the merge reclaimed: back under the soft limit
            } else {
                f.stall.update(0, LIVE, HARD + MIB); // still over: the daemon's rounds change nothing
            }
        };

        long since = f.stall.admit(200, 0);

        assertThat(rounds[0]).isEqualTo(3);
        assertThat(since).isPositive();
        assertThat(f.stall.stage()).isEqualTo(WriteStall.NONE);
        assertThat(f.stall.stalledWrites()).isOne();
        assertThat(f.stall.stallNanos()).isEqualTo(f.pausedNanos());
        assertThat(f.pauses).allSatisfy(p -> assertThat(p).isLessThanOrEqualTo(WriteStall.LONGEST_WAIT_NANOS));
    }

    @Test
    void aWriteThatWaitsPastTheTimeoutThrowsNamingTheBoundAndTheFigures() {
        Fake f = new Fake();
        f.stall.update(0, LIVE, HARD + MIB);

        assertThatThrownBy(() -> f.stall.admit(200, 0))
                .isInstanceOf(BitCaskException.class)
                .hasMessageContaining("/data/s")
                .hasMessageContaining("60,000 ms (writeStallTimeout)")
                .hasMessageContaining(String.format(Locale.ROOT, "%,d data bytes for %,d live bytes", HARD + MIB, LIVE))
                .hasMessageContaining(String.format(Locale.ROOT, "the bound is %,d bytes", HARD))
                .hasMessageContaining("maxSpaceAmplification 2.00 times the live bytes, plus one 4,194,304-byte segment")
                .hasMessageContaining("no merge has completed")
                .hasMessageContaining("Nothing was written");
        assertThat(f.pausedNanos()).isEqualTo(TIMEOUT);
    }

    @Test
    void theTimeoutCountsFromTheFirstWaitOverRetries() {
        Fake f = new Fake();
        f.stall.update(0, LIVE, HARD + MIB);
        f.duringPause = () -> f.stall.update(0, LIVE, SOFT - MIB);
        long since = f.stall.admit(200, 0);
        f.stall.update(0, LIVE, HARD + MIB);
        f.duringPause = () -> {
        };
        f.now = since + TIMEOUT - 1;

        assertThatThrownBy(() -> f.stall.admit(200, since)).isInstanceOf(BitCaskException.class);
        assertThat(f.stall.stalledWrites()).as("one write, however many retries").isOne();
    }

    @Test
    void aRefusalAtTheLimitStopsWritesUntilARoundFindsRoomForTheRefusedWrite() {
        Fake f = new Fake();
        f.stall.update(0, LIVE, SOFT - MIB);
        f.reserved = f.limit.get() - 100; // the log writer refused a write of 1000 bytes: 100 left
        List<Integer> stages = new ArrayList<>();
        f.duringPause = () -> {
            // Room under the bound, but less than the refused write needs, twice; then room for it.
            f.stall.update(0, LIVE, stages.size() < 2 ? HARD - 100 : HARD - MIB);
            stages.add(f.stall.stage());
        };

        f.stall.reached(1000, 0);

        assertThat(stages).as("stopped until a round found room for it, then only delayed")
                .startsWith(WriteStall.STOP, WriteStall.STOP, WriteStall.DELAY);
    }

    @Test
    void aRefusedWriteWhoseFreshRoundFindsRoomGoesOnWithoutWaiting() {
        Fake f = new Fake();
        f.stall.update(0, LIVE / 2, LIVE / 2);
        f.reserved = f.limit.get() - 100;
        int[] rounds = {0};
        // The store filled with new keys since the last round: the live bytes, and the bound with them, grew.
        f.refresh = () -> {
            rounds[0]++;
            f.stall.update(f.reserved, LIVE, LIVE);
        };

        assertThat(f.stall.reached(1000, 0)).isZero();

        assertThat(rounds[0]).isOne();
        assertThat(f.stall.engaged()).isFalse();
        assertThat(f.stall.stalledWrites()).isZero();
        assertThat(f.pauses).isEmpty();
    }

    @Test
    void closeAndAFailedStoreLetEveryWaiterGoAndCloseLiftsTheLimit() {
        Fake f = new Fake();
        f.stall.update(0, LIVE, HARD + MIB);
        f.duringPause = () -> f.stopped = true;
        f.stall.admit(200, 0);
        assertThat(f.pauses).hasSize(1);

        f.stopped = false;
        f.duringPause = f.stall::close;
        f.stall.admit(200, 0);
        assertThat(f.pauses).hasSize(2);
        assertThat(f.limit.get()).isEqualTo(Long.MAX_VALUE);
        f.stall.update(0, LIVE, HARD + MIB);
        assertThat(f.stall.engaged()).as("closed for good").isFalse();
        f.reserved = Long.MAX_VALUE - 1;
        f.stall.reached(200, 0);
        assertThat(f.stall.engaged()).isFalse();
    }

    @Test
    void withoutABoundNothingStallsAndNoLimitIsSet() {
        Fake f = new Fake(Double.POSITIVE_INFINITY);
        f.stall.update(0, LIVE, 1000 * LIVE);

        assertThat(f.stall.engaged()).isFalse();
        assertThat(f.limit.get()).isEqualTo(Long.MAX_VALUE);
        assertThat(f.stall.debtBytes()).as("the debt is still measured").isPositive();
    }
}
