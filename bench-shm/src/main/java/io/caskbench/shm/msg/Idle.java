package io.caskbench.shm.msg;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a shared-memory side waits: spin, then yield, then sleep in short naps; and give up with
 * {@link PeerStalledException} after the stall limit. msg_peer.c waits the same way.
 *
 * <p>Pure spinning gives the best latency on idle cores, but this box has two cores shared with other
 * work: a spinner that never yields can hold the core its peer needs. The spin phase (64 PAUSEs, about
 * 3 us on this EPYC) covers a healthy cross-core hand-off (0.1-0.5 us) several times over. When both
 * processes end up on one core, every hand-off costs a whole spin phase before the yield: measured
 * round trips in that case were ~18 us with 256 PAUSEs and ~7 us with 64.
 */
final class Idle {

    /** Busy-wait iterations before yielding. */
    static final int SPINS = 64;
    /** Yields before napping. */
    static final int YIELDS = 10_000;
    /** Nap length once yielding did not help. */
    static final long NAP_NANOS = 50_000;

    private final long stallNanos;
    private final String what;
    private int rounds;
    private long since;

    Idle(long stallMillis, String what) {
        this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
        this.what = what;
    }

    /** Starts a new wait. */
    void reset() {
        rounds = 0;
    }

    /** Waits a little; throws once the current wait has lasted longer than the stall limit. */
    void idle() {
        int r = ++rounds;
        if (r < SPINS) {
            Thread.onSpinWait();
            return;
        }
        if (r == SPINS) {
            since = System.nanoTime();
        }
        if (r < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(NAP_NANOS);
        }
        if ((r & 63) == 0 && System.nanoTime() - since > stallNanos) {
            throw new PeerStalledException("no progress for " + TimeUnit.NANOSECONDS.toMillis(stallNanos)
                    + " ms while waiting for " + what);
        }
    }
}
