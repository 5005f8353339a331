package io.caskbench.bench.openloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A wait parks until the spin-ahead before its due time and spins the rest, so a park that wakes late still
 * starts the operation on time; the spin-ahead follows the parks' lateness up at once and down slowly, within
 * its limit, and learns nothing from a park later than its cap; and a thread that finds the processors'
 * worth of spinners parks instead.
 */
class SpinAheadTest {

    private static final long US = 1_000;
    /** A thread's interval long enough not to limit the spin-ahead: 1,000 operations per second. */
    private static final double MS_INTERVAL = 1e6;

    /** Waits for {@code count} due times 1 ms apart from now and returns how late the latest of them returned. */
    private static long waitFor(FakeClock clock, SpinAhead wait, int count) {
        long latest = 0;
        for (int i = 0; i < count; i++) {
            long due = clock.nanoTime() + 1_000 * US;
            wait.await(due);
            long late = clock.nanoTime() - due;
            assertThat(late).as("wait %d returned before its due time", i).isNotNegative();
            latest = Math.max(latest, late);
        }
        return latest;
    }

    @Test
    void aParkThatWakesLateIsCoveredBySpinningFromBeforeTheDueTime() {
        FakeClock clock = new FakeClock(80 * US);
        SpinAhead wait = new SpinAhead(clock, 200 * US, MS_INTERVAL, new AtomicInteger(), 1);
        // It starts at a quarter of the cap, 50 us: the first park wakes 30 us after the due time, and the
        // spin-ahead goes to 80 us and an eighth, 90 us.
        assertThat(waitFor(clock, wait, 1)).isEqualTo(30 * US);
        assertThat(wait.lead()).isEqualTo(90 * US);
        assertThat(waitFor(clock, wait, 200)).as("the latest of 200 waits").isZero();
        // Down by a 32nd of its distance to the 80 us lateness per wait: 10 us x (31/32)^200 above it.
        assertThat(wait.lead()).isBetween(80 * US, 81 * US);
        assertThat(clock.parks()).isEqualTo(201);
        // Spun: each wait's spin-ahead less the lateness, about 32 x 10 us in all.
        assertThat(wait.spun()).isBetween(250 * US, 330 * US);
    }

    @Test
    void aLatenessSpikeRaisesTheSpinAheadAtOnceAndItSettlesBackSlowly() {
        FakeClock clock = new FakeClock(20 * US);
        SpinAhead wait = new SpinAhead(clock, 200 * US, MS_INTERVAL, new AtomicInteger(), 1);
        waitFor(clock, wait, 300);
        assertThat(waitFor(clock, wait, 1)).isZero();
        long settled = wait.lead();
        assertThat(settled).isBetween(20 * US, 21 * US);

        clock.parkLate(100 * US);
        // The park wakes 100 us after the spin-ahead before the due time: late by the difference.
        assertThat(waitFor(clock, wait, 1)).isEqualTo(100 * US - settled);
        assertThat(wait.lead()).isEqualTo(100 * US + 100 * US / 8);

        clock.parkLate(20 * US);
        assertThat(waitFor(clock, wait, 1)).isZero();
        assertThat(wait.lead()).isLessThan(112_500).isGreaterThan(100 * US);
    }

    @Test
    void aParkLaterThanTheCapWaitedForACoreAndTeachesNothing() {
        FakeClock clock = new FakeClock(300 * US);
        SpinAhead wait = new SpinAhead(clock, 100 * US, MS_INTERVAL, new AtomicInteger(), 1);
        assertThat(waitFor(clock, wait, 20)).isEqualTo(275 * US);
        assertThat(wait.lead()).isEqualTo(25 * US);
        assertThat(wait.spun()).isZero();
    }

    @Test
    void aThreadNeverSpinsMoreThanHalfItsInterval() {
        // 20,000 operations per second on one thread: 50 us apart, parks 55 us late.
        FakeClock clock = new FakeClock(55 * US);
        SpinAhead wait = new SpinAhead(clock, 100 * US, 50 * US, new AtomicInteger(), 1);
        long due = clock.nanoTime();
        for (int i = 0; i < 100; i++) {
            due += 50 * US;
            wait.await(due);
            clock.advance(1 * US);
        }
        // Never more than half the interval ahead, so never more than 25 us spun per wait.
        assertThat(wait.lead()).isEqualTo(25 * US);
        assertThat(wait.spun()).isPositive().isLessThanOrEqualTo(100 * 25 * US);
    }

    @Test
    void aThreadThatFindsEveryProcessorSpinningParksToTheDueTime() {
        FakeClock clock = new FakeClock(30 * US);
        AtomicInteger spinning = new AtomicInteger(2); // two other threads spin on a machine of two processors
        SpinAhead wait = new SpinAhead(clock, 200 * US, MS_INTERVAL, spinning, 2);
        // The first park wakes 20 us before the due time: the rest is parked too, and wakes 30 us late.
        assertThat(waitFor(clock, wait, 1)).isEqualTo(30 * US);
        assertThat(clock.parks()).isEqualTo(2);
        assertThat(wait.spun()).isZero();
        assertThat(spinning).hasValue(2);

        spinning.set(1);
        assertThat(waitFor(clock, wait, 1)).isZero();
        assertThat(wait.spun()).isPositive();
        assertThat(spinning).hasValue(1);
    }

    @Test
    void aCapOfZeroParksOnlyAndADueTimePassedReturnsAtOnce() {
        FakeClock clock = new FakeClock(50 * US);
        SpinAhead wait = new SpinAhead(clock, 0, MS_INTERVAL, new AtomicInteger(), 1);
        assertThat(waitFor(clock, wait, 10)).isEqualTo(50 * US);
        assertThat(wait.spun()).isZero();
        assertThat(wait.lead()).isZero();

        long parks = clock.parks();
        long now = clock.nanoTime();
        wait.await(now - 1);
        assertThat(clock.nanoTime()).isEqualTo(now);
        assertThat(clock.parks()).isEqualTo(parks);
    }
}
