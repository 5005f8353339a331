package io.caskbench.bitcask.log;

import io.caskbench.bitcask.segment.Segment;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Threading: any thread joins; one thread at a time leads (the put that found the queue empty, or
 * the one the previous leader handed the lead to) and writes its group under the write lock. A
 * member's record fields are its own thread's until it joins; its place, failure and links are
 * the leader's until the leader wakes it.
 *
 * <p>The write group: puts queue up, and one of them, the leader, takes the write lock once and
 * writes the records of every put queued by then (see {@link Writer}). It then hands the lead to
 * the oldest put it did not take, wakes the ones it wrote, and each of them publishes its own
 * record to the key directory. The queue is a stack of members pushed by compare-and-set; each
 * member links to the one pushed before it, and the leader walks those links back to itself to
 * find its group in log order.
 *
 * <p>A member waits by spinning a little, since a small group is often written within that, and
 * then parks until the leader sets its state and unparks it: a parked virtual thread gives its
 * carrier back, which the leader may need.
 */
final class WriteGroup {

    /** A group stops growing at this many bytes, unless its first record alone is larger. */
    static final int MAX_GROUP_BYTES = 1 << 20;
    /** Spins before a waiting member parks: a group of a few small records is written within them. */
    static final int SPINS = 64;
    /** A member's state: queued, and neither written nor leading. */
    static final int WAITING = 0;
    /** A member's state: the previous leader handed it the lead. */
    static final int LEADING = 1;
    /** A member's state: a leader wrote its record, or failed to (see {@link Member#failure}). */
    static final int WRITTEN = 2;

    /** Final, safe everywhere. */
    private final WriteProtocol protocol;
    /** Final, safe everywhere. */
    private final Writer writer;
    /** The member pushed last, null when no put is queued or leading; any thread. */
    private final AtomicReference<Member> newest = new AtomicReference<>();

    /** Writes a group: what the leader runs under the write lock. */
    interface Writer {
        /**
         * Writes the records of {@code first} and of the members after it, up to {@code last}, in
         * that order (follow {@link Member#newer}); returns the last member it took, {@code last} or
         * one before it, whose followers go to the next leader. Gives each member it took a place
         * ({@link Member#placed}) or a failure. Must not throw.
         */
        Member write(Member first, Member last);
    }

    /** One put in the queue: its encoded record, and where the leader placed it. */
    static final class Member {
        /** The record, encoded and not yet sealed; the leader seals it. Final. */
        final byte[] record;
        /** Final. */
        final int length;
        /** Final. */
        private final Thread thread;
        /** The member pushed before this one; its thread before the push, the leader after. */
        private Member older;
        /** The member pushed after this one in the same group; the leader, under the write lock. */
        Member newer;
        /** Segment the record went to; the leader, read by the member once woken. */
        Segment segment;
        /** Offset there. */
        long offset;
        /** Log count at the record's end. */
        long lsn;
        /** Why the record was not written, null when it was. */
        Throwable failure;
        /** One of {@link #WAITING}, {@link #LEADING}, {@link #WRITTEN}; its last write publishes the rest. */
        private volatile int state;

        /** A member for the calling thread's record of {@code length} bytes in {@code record}. */
        Member(byte[] record, int length) {
            this.record = record;
            this.length = length;
            this.thread = Thread.currentThread();
        }

        /** The leader placed the record at {@code offset} of {@code segment}, ending at {@code lsn} in the log. */
        void placed(Segment segment, long offset, long lsn) {
            this.segment = segment;
            this.offset = offset;
            this.lsn = lsn;
        }

        /** Throws the failure the leader gave this member, if any. */
        void throwIfFailed() {
            Throwable f = failure;
            if (f instanceof RuntimeException) {
                throw (RuntimeException) f;
            }
            if (f instanceof Error) {
                throw (Error) f;
            }
        }
    }

    /** A write group whose leaders take {@code protocol}'s lock and run {@code writer} under it. */
    WriteGroup(WriteProtocol protocol, Writer writer) {
        this.protocol = protocol;
        this.writer = writer;
    }

    /**
     * Queues {@code me} and returns once a leader, maybe this thread, wrote its record or gave it a
     * failure.
     */
    void join(Member me) {
        Member before;
        do {
            before = newest.get();
            me.older = before;
        } while (!newest.compareAndSet(before, me));
        if (before == null || await(me)) {
            lead(me);
        }
    }

    /** Waits until {@code me} is written (false) or handed the lead (true). */
    private boolean await(Member me) {
        boolean interrupted = false;
        int s;
        for (int spins = 0; (s = me.state) == WAITING; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
                interrupted |= Thread.interrupted(); // else the park returns at once, every time
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return s == LEADING;
    }

    /** As the leader of the members from {@code first} on: writes a group, hands the lead on, wakes the group. */
    private void lead(Member first) {
        first.older = null; // the groups before are written: let them go
        Member last = first;
        try {
            last = protocol.lead(() -> writeGroup(first));
        } finally {
            handOff(last);
            for (Member m = first, next; m != null; m = next) {
                next = m == last ? null : m.newer;
                if (m != first) {
                    m.state = WRITTEN;
                    LockSupport.unpark(m.thread);
                }
            }
        }
    }

    /** Under the write lock: links the queue from {@code first} to the newest member, and lets the writer take a group. */
    private Member writeGroup(Member first) {
        Member newestNow = newest.get();
        Member last = first;
        long bytes = first.length;
        for (Member m = newestNow; m != first; m = m.older) {
            m.older.newer = m;
        }
        while (last != newestNow && bytes + last.newer.length <= MAX_GROUP_BYTES) {
            last = last.newer;
            bytes += last.length;
        }
        try {
            return writer.write(first, last);
        } catch (RuntimeException | Error e) { // a writer's bug: the members it left fail, none waits for ever
            for (Member m = first; m != last.newer; m = m.newer) {
                if (m.segment == null && m.failure == null) {
                    m.failure = e;
                }
            }
            return last;
        }
    }

    /** Hands the lead to the oldest member after {@code last}, if there is one; else empties the queue. */
    private void handOff(Member last) {
        Member next = last.newer;
        if (next == null) {
            if (newest.compareAndSet(last, null)) {
                return;
            }
            next = newest.get(); // pushed after the group was linked: walk back to the one after last
            while (next.older != last) {
                next = next.older;
            }
        }
        next.state = LEADING;
        LockSupport.unpark(next.thread);
    }
}
