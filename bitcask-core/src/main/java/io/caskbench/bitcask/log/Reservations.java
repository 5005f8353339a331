package io.caskbench.bitcask.log;

import io.caskbench.bitcask.io.Threads;
import io.caskbench.bitcask.segment.Segment;

import java.util.ArrayDeque;

/**
 * Threading: {@link #add} on the writer thread under the log writer's lock; {@link #done} from any
 * thread, once per range; {@link #awaitCopied} on the writer thread under the lock, which stops new
 * ranges; {@link #written} anywhere. The queue is guarded by {@code this}.
 *
 * <p>The ranges of the log that writes have reserved and not yet finished copying, in log order,
 * the log's reserved end (what every write that returned lies before), and its written end: the count of bytes before which every range is finished. A put
 * reserves its range under the lock and copies its record outside it, so copies finish out of
 * order; the written end moves only past a run of finished ranges. It alone is what a force may
 * count as covered, and it moves each segment's end, so a force, a hint or a merge never counts a
 * range whose bytes may still be on their way.
 *
 * <p>A range whose copy failed is finished all the same: it is a hole that recovery steps over
 * (see {@code SegmentScanner}), and the ranges after it must not wait for it forever.
 */
final class Reservations {

    /** Ranges not yet passed by the written end, oldest first; guarded by {@code this}. */
    private final ArrayDeque<Range> pending = new ArrayDeque<>();
    /** The writer waits in {@link #awaitCopied}; guarded by {@code this}. */
    private boolean awaited;
    /** Log bytes before which every range is written; rises under {@code this}, read anywhere. */
    private volatile long written;
    /** Log bytes reserved so far, the end of the newest range; rises under {@code this}, read anywhere. */
    private volatile long reserved;

    /** One reserved range: its segment, where it ends there, and the log count at its end. */
    static final class Range {
        /** Final. */
        final Segment segment;
        /** Final. */
        final long end;
        /** Final. */
        final long lsn;
        /** Its copy returned or failed; guarded by the {@code Reservations} that made it. */
        private boolean finished;

        private Range(Segment segment, long end, long lsn) {
            this.segment = segment;
            this.end = end;
            this.lsn = lsn;
        }
    }

    /** Ranges of a log whose first {@code written} bytes are already written. */
    Reservations(long written) {
        this.written = written;
        this.reserved = written;
    }

    /** Bytes of the log before which every reserved range is written: what a force may count. */
    long written() {
        return written;
    }

    /**
     * Bytes of the log reserved so far: every write that returned lies before this count, whether
     * or not the copies before it are finished. What a barrier ({@code sync()}, a merge) must cover.
     */
    long reserved() {
        return reserved;
    }

    /** Reserves the range that ends at {@code end} in {@code segment} and at {@code lsn} in the log. */
    synchronized Range add(Segment segment, long end, long lsn) {
        Range r = new Range(segment, end, lsn);
        pending.addLast(r);
        reserved = lsn;
        return r;
    }

    /** Marks {@code r} finished, and moves the written end past every finished range at the front. */
    synchronized void done(Range r) {
        r.finished = true;
        Range head;
        while ((head = pending.peekFirst()) != null && head.finished) {
            pending.pollFirst();
            head.segment.end(head.end);
            written = head.lsn;
        }
        if (awaited && pending.isEmpty()) {
            notifyAll();
        }
    }

    /**
     * Waits until every range reserved so far is finished: a rollover, a seal or a close must not
     * cut or force a segment under a copy. The caller holds the log writer's lock, so no range is
     * added meanwhile; the copies it waits for need no lock.
     */
    synchronized void awaitCopied() {
        if (pending.isEmpty()) {
            return;
        }
        awaited = true;
        try {
            while (!pending.isEmpty()) {
                Threads.uninterruptibly(this::wait);
            }
        } finally {
            awaited = false;
        }
    }
}
