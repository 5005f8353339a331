package io.caskbench.bench.openloop;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to or when a thread waits on it: a park moves it by the time asked plus
 * a set lateness (as the kernel's timer slack would), a spin by one nanosecond. For one worker thread.
 */
final class FakeClock implements Clock {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    /** How late every park wakes, nanoseconds. */
    private final AtomicLong parkLate = new AtomicLong();
    /** Parks so far. */
    private final AtomicLong parks = new AtomicLong();

    /** A clock whose parks wake exactly on time. */
    FakeClock() {
        this(0);
    }

    /** A clock whose parks wake {@code parkLate} nanoseconds after the time asked. */
    FakeClock(long parkLate) {
        this.parkLate.set(parkLate);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public void park(long nanos) {
        parks.incrementAndGet();
        now.addAndGet(Math.max(0, nanos) + parkLate.get());
    }

    @Override
    public void spin() {
        now.incrementAndGet();
    }

    /** Moves the clock on, as an operation taking {@code nanos} would. */
    void advance(long nanos) {
        now.addAndGet(nanos);
    }

    /** Makes every later park wake {@code nanos} after the time asked. */
    void parkLate(long nanos) {
        parkLate.set(nanos);
    }

    /** The parks so far. */
    long parks() {
        return parks.get();
    }
}
