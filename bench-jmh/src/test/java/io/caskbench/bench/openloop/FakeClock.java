package io.caskbench.bench.openloop;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to or when a thread waits on it; for one worker thread. */
final class FakeClock implements Clock {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public void sleepUntil(long deadline) {
        now.accumulateAndGet(deadline, Math::max);
    }

    /** Moves the clock on, as an operation taking {@code nanos} would. */
    void advance(long nanos) {
        now.addAndGet(nanos);
    }
}
