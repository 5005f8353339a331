package io.caskbench.bitcask.testing;

import java.util.concurrent.atomic.AtomicReference;

/** Waits for a thread to park: how a test knows a writer is queued behind another. */
public final class Parking {

    private Parking() {
    }

    /** Waits, about 30 s at most, until the thread that {@code t} will hold is parked with no timeout. */
    public static void awaitParked(AtomicReference<Thread> t) throws InterruptedException {
        for (int i = 0; i < 30_000; i++) {
            Thread thread = t.get();
            if (thread != null && thread.getState() == Thread.State.WAITING) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the thread never parked");
    }
}
