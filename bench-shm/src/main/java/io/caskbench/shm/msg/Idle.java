package io.caskbench.shm.msg;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a shared-memory side waits: spin, then yield, then sleep in short naps; and give up with
 * {@link PeerStalledException} after the stall limit. msg_peer.c waits the same way.
 *
 * <p>Pure spinning gives the best latency on idle cores, but this box has two cores shared with other
 * work: a spinner that never yields can hold the core its peer needs. The spin phase (256 PAUSEs,
 * about 10-15 us on this EPYC) covers a healthy cross-core hand-off many times over; when both
 * processes share one core, yielding early hands it over instead of burning a whole spin phase (4096
 * PAUSEs made such round trips cost ~240 us).
 */
final class Idle {

    /** Busy-wait iterations before yielding. */
    static final int SPINS = 256;
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
