package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.events.WriteStallEvent;

/**
 * Threading: under the write stall's lock; begun by the debt daemon, or by the first write the log writer
 * refused, and ended by the debt daemon or the closing thread.
 *
 * <p>One write stall as its JFR event tells it: from the moment the store's data passed its soft limit
 * to the moment it was back under, the worst figures seen meanwhile, and the puts delayed and the time
 * they waited, as the differences of the stall's counters between its start and its end.
 */
final class StallPeriod {

    /** The store's directory, for the event; final. */
    private final String store;
    /** The event of the stall under way, null between stalls. */
    private WriteStallEvent event;
    /** True once puts waited at the hard limit in this stall. */
    private boolean stopped;
    /** The figures at the stall's worst moment so far: the most data over the hard limit. */
    private SpaceBound.Level worst;
    /** The lowest delayed write rate so far, bytes per second. */
    private long lowestRate;
    /** The stall counters when it began. */
    private long putsAtStart;
    /** The stall counters when it began. */
    private long nanosAtStart;

    /** Stalls of {@code store}. */
    StallPeriod(String store) {
        this.store = store;
    }

    /**
     * Notes the stall's stage now with the figures {@code level}, the delayed rate and the counters:
     * begins a stall when one starts, follows it, and ends and records it once the stage is back to none.
     */
    void observe(int stage, SpaceBound.Level level, long rate, long puts, long nanos) {
        if (stage == WriteStall.NONE) {
            if (event != null) {
                end(puts, nanos);
            }
            return;
        }
        if (event == null) {
            event = new WriteStallEvent();
            event.begin();
            stopped = false;
            worst = level;
            lowestRate = rate;
            putsAtStart = puts;
            nanosAtStart = nanos;
        }
        stopped |= stage == WriteStall.STOP;
        if (level.data() - level.hard() > worst.data() - worst.hard()) {
            worst = level;
        }
        lowestRate = Math.min(lowestRate, rate);
    }

    /** Ends and records the stall under way, if any. */
    void end(long puts, long nanos) {
        WriteStallEvent e = event;
        if (e == null) {
            return;
        }
        event = null;
        e.end();
        if (e.shouldCommit()) {
            e.store = store;
            e.stopped = stopped;
            e.stalledPuts = puts - putsAtStart;
            e.stallMillis = (nanos - nanosAtStart) / 1_000_000;
            e.dataBytes = worst.data();
            e.liveBytes = worst.live();
            e.softLimitBytes = worst.soft();
            e.hardLimitBytes = worst.hard();
            e.mergeDebtBytes = worst.debt();
            e.lowestWriteRate = lowestRate;
            e.commit();
        }
    }
}
