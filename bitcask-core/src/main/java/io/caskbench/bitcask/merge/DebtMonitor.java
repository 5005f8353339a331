package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;

import java.util.List;

/**
 * Threading: the debt daemon, and a writer the log writer refused ({@link #refresh}); one round at a time,
 * under {@code this}.
 *
 * <p>One round of the store's debt daemon: sums the live and data bytes of every segment (figures each
 * segment keeps; no file is read), hands them to the {@link WriteStall}, and asks for an automatic merge
 * at once when one is due by the merge trigger or the store is past its soft limit. So a store that
 * overwrites fast merges as soon as its garbage reaches the trigger, not at the next check interval, and
 * a stall always has a merge running or queued. Each round says when the next should come: every
 * {@link #BUSY_MILLIS} while the data is halfway or more from the live bytes to the comfortable level, else
 * every {@link #IDLE_MILLIS}. A round costs a walk over the segment list.
 */
public final class DebtMonitor {

    /** Between two rounds while the store nears or passes its comfortable level. */
    public static final long BUSY_MILLIS = 5;
    /** Between two rounds while it is far under. */
    public static final long IDLE_MILLIS = 50;
    /** A refresh asked for within this of the last round's start is not run: that round is fresh enough. */
    static final long REFRESH_NANOS = 1_000_000;

    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final LogWriter log;
    /** Final, safe everywhere. */
    private final WriteStall stall;
    /** Final, safe everywhere. */
    private final MergePolicy policy;
    /** Queues an automatic merge unless one is queued; final. */
    private final Runnable mergeSoon;
    /** The live bytes the last round summed; under {@code this}. */
    private long lastLive;
    /** When the last round began, {@link System#nanoTime}; under {@code this}. */
    private long lastRound = System.nanoTime() - REFRESH_NANOS;

    /** The rounds over {@code table} and {@code log} for {@code stall}, asking {@code mergeSoon} when {@code policy} says. */
    public DebtMonitor(SegmentTable table, LogWriter log, WriteStall stall, MergePolicy policy, Runnable mergeSoon) {
        this.table = table;
        this.log = log;
        this.stall = stall;
        this.policy = policy;
        this.mergeSoon = mergeSoon;
    }

    /**
     * A round now, on the calling thread, unless one began within {@link #REFRESH_NANOS}: a write the log
     * writer refused asks for it, since the limit may be a round old.
     */
    public synchronized void refresh() {
        if (System.nanoTime() - lastRound >= REFRESH_NANOS) {
            round();
        }
    }

    /** One round; returns the milliseconds until the next. */
    public synchronized long round() {
        lastRound = System.nanoTime();
        // The segments' ends cover every byte before the written end read first, and more; what is reserved
        // beyond it is still being copied (one slow copy holds back the ends of every range after it), so it
        // counts as data already. Bytes the sums count twice only make the limit stricter.
        long written = log.appended();
        long reserved = log.reserved();
        long[] sums = table.stable(DebtMonitor::sums);
        // The larger of two rounds' live bytes: a round the daemon lost its core in may miss many puts'
        // records (see sums), and its limit would stop writes for nothing until the next.
        long live = Math.max(sums[0], lastLive);
        lastLive = sums[0];
        long data = sums[1] + Math.max(0, reserved - written);
        SpaceBound.Level level = stall.update(reserved, live, data);
        long dead = Math.max(0, data - live);
        boolean due = policy.due(dead, data == 0 ? 0 : (double) dead / data);
        if (due || stall.engaged()) {
            mergeSoon.run();
        }
        boolean near = data - level.live() >= (level.comfortable() - level.live()) / 2;
        return due || near || stall.engaged() ? BUSY_MILLIS : IDLE_MILLIS;
    }

    /**
     * Live bytes and data bytes of {@code segments} (oldest first), summed newest first: a put
     * counts its record live in the newest segment before it counts the record it replaced dead in an
     * older one, so read in this order the sum can only miss puts made while it runs (and stay under the
     * truth, which makes the limit stricter), never count one's record live and the old one too, beyond
     * the few puts still copying.
     */
    private static long[] sums(List<Segment> segments) {
        long live = 0;
        long data = 0;
        for (int i = segments.size() - 1; i >= 0; i--) {
            Segment seg = segments.get(i);
            live += seg.liveBytes();
            data += seg.dataBytes();
        }
        return new long[] {live, data};
    }
}
