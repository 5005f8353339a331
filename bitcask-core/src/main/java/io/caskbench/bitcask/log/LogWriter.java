package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.events.RolloverEvent;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.segment.HintWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;

import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * Threading: any thread calls it; every write into the log, rollover and every change of the
 * active segment are made under the write lock; a put publishes its record after the lock;
 * {@code active} and the written end are read anywhere without a lock.
 *
 * <p>The one writer of the log: it owns the active segment, appends records and batches to it,
 * and rolls over to a new segment when it is full. A put encodes and checksums its record in its
 * own thread's buffer and joins a {@link WriteGroup}: one of the puts queued, the leader, takes
 * the lock once for all of them, reserves their ranges one after another (rolling over where the
 * segment is full, which under {@code ALWAYS} first forces the old one), seals each record to its
 * offset and writes them: on a backend whose write is a system call, joined into one positional
 * write per segment; on a mapping, one copy each, in order. It then lets go of the lock, hands
 * the lead to the next put waiting, and wakes its group; each put points the key directory at its
 * own record. The key directory takes concurrent publications by compare-and-set, toward the
 * record later in the log only, so of two puts of one key the later record wins whichever
 * publishes first. Deletes (which read the directory before they write), batches (whose keys must
 * all appear at once) and every other exclusive change take the lock, wait until the puts already
 * written have published, and then write under the lock.
 *
 * <p>{@link Reservations} keeps the written end, which a force counts and a segment's end follows.
 * A write that fails leaves a hole (a range reserved and not written, or written in part) that
 * the records after it step over; a {@code kill -9} in the middle of a group's write leaves a torn
 * tail, since no put of the group has returned. Recovery steps over either (see
 * {@code SegmentScanner}).
 *
 * <p>Every change takes the lock through {@link WriteProtocol}: a write group's leader by its way
 * in for groups, all else by the exclusive one.
 */
public final class LogWriter implements GroupCommit.Log {

    /** The result of {@link #delete} has this bit set when a live value was removed. */
    public static final long REMOVED = Long.MIN_VALUE;

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final StoreStatus status;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final, safe everywhere. */
    private final BatchFence fence;
    /** Final, safe everywhere. */
    private final UnforcedSegments unforced;
    /** Final, safe everywhere. */
    private final HintWriter hints;
    /** Final, safe everywhere. */
    private final Clock clock;
    /** Final, safe everywhere. */
    private final long segmentSize;
    /** Under {@code ALWAYS}: a sealed segment is forced before the write that needs the next one goes on. Final. */
    private final boolean syncAlways;
    /** The writers' lock and the count of puts publishing: the only way to write; final, safe everywhere. */
    private final WriteProtocol protocol;
    /** The segment appended to, null when read-only; any thread reads, writer thread under the write lock replaces. */
    private volatile Segment active;
    /** End of the ranges reserved in the active segment; writer thread, under the write lock. */
    private long writePos;
    /** Id of the next segment; writer thread, under the write lock. */
    private long nextId;
    /** Buffer of deletes and batches, encoded under the lock; writer thread, under the write lock. */
    private byte[] writeScratch = new byte[4096];
    /** Bytes reserved since open; writer thread, under the write lock. */
    private long reservedLsn;
    /** Ranges still being copied, and the written end; final, safe everywhere. */
    private final Reservations copies = new Reservations(0);
    /** The puts waiting for a leader to write them; final, safe everywhere. */
    private final WriteGroup group;

    /**
     * A merge's reservation: what it merges, the ids its outputs may take, the id of the oldest
     * segment it leaves in place ({@link Long#MAX_VALUE} when it takes them all), and how many
     * segments the store had.
     */
    public record Seal(List<Segment> inputs, long firstOutputId, int reservedIds, long oldestKeptId, int segmentsInStore) {
    }

    /** What {@link #snapshot} saw: every segment, and where the newest one's records end. */
    public record Snapshot(List<Segment> segments, long newestEnd) {
    }

    /** The batch {@link #appendBatch} writes: its members in order; a delete has a null value. */
    public interface Batch {
        /** Members. */
        int size();

        /** Key of member {@code i}. */
        byte[] key(int i);

        /** Value of member {@code i}, null for a delete. */
        byte[] value(int i);

        /** Time to live of member {@code i} in milliseconds, 0 for none. */
        long ttlMillis(int i);
    }

    /**
     * The writer of a log whose newest segment, {@code active} (null when read-only), holds
     * records up to its end, and whose next new segment is {@code nextId}.
     */
    public LogWriter(StoreDirectory dir, StoreStatus status, SegmentTable table, WriteProtocol protocol, KeyDirWriter keys,
                     BatchFence fence, UnforcedSegments unforced, HintWriter hints, Clock clock, long segmentSize,
                     boolean syncAlways, Segment active, long nextId) {
        this.protocol = protocol;
        this.dir = dir;
        this.status = status;
        this.table = table;
        this.keys = keys;
        this.fence = fence;
        this.unforced = unforced;
        this.hints = hints;
        this.clock = clock;
        this.segmentSize = segmentSize;
        this.syncAlways = syncAlways;
        this.active = active;
        this.writePos = active == null ? 0 : active.end();
        this.nextId = nextId;
        this.group = new WriteGroup(protocol, this::writeGroup);
    }

    /** {@code now + ttlMillis}, saturated: a far-future expiry is the end of time, never an early one. */
    public static long expiresAt(long now, long ttlMillis) {
        long at = now + ttlMillis;
        return ttlMillis > 0 && at < now ? Long.MAX_VALUE : at;
    }

    /**
     * Bytes written so far with nothing unwritten before them: a force that covers this count
     * covers every record whose write returned before the call.
     */
    @Override
    public long appended() {
        return copies.written();
    }

    /** Id of the active segment, 0 when read-only. */
    @Override
    public long activeSegmentId() {
        Segment seg = active;
        return seg == null ? 0 : seg.id();
    }

    /** The active segment, null when read-only. */
    public Segment active() {
        return active;
    }

    /**
     * Appends a put of {@code value} under {@code key}, expiring after {@code ttlMillis} unless 0;
     * returns its LSN. The record is encoded before the put joins its write group; a leader writes
     * it with the rest of its group, and the put publishes it to the key directory once woken.
     */
    public long put(byte[] key, byte[] value, long ttlMillis) {
        int flags = ttlMillis > 0 ? RecordFormat.EXPIRES : 0;
        long expiresAt = ttlMillis > 0 ? expiresAt(clock.millis(), ttlMillis) : 0L;
        int hash = KeyHash.hash(key);
        int len = RecordFormat.recordLength(flags, key.length, value.length);
        byte[] buf = Scratch.of(Scratch.WRITE, len);
        RecordFormat.encode(buf, 0, clock.millis(), flags, expiresAt, key, value);
        WriteGroup.Member me = new WriteGroup.Member(buf, len);
        group.join(me);
        me.throwIfFailed();
        keys.publish(me.segment, me.offset, len, key, hash); // ends what the leader counted, even when it throws
        return me.lsn;
    }

    /**
     * A write group's leader, under the write lock: room in the key directory for the group (else
     * for its first member only, the rest going to the next leader), then each record's range, a
     * rollover where the segment is full, and one write per run of records in one segment.
     */
    private WriteGroup.Member writeGroup(WriteGroup.Member first, WriteGroup.Member last) {
        int count = 1;
        for (WriteGroup.Member m = first; m != last; m = m.newer) {
            count++;
        }
        try {
            status.ensureWritable();
        } catch (RuntimeException | Error e) {
            for (WriteGroup.Member m = first; m != last.newer; m = m.newer) {
                m.failure = e;
            }
            return last;
        }
        try {
            keys.ensureRoomForKeys(count);
        } catch (RuntimeException | Error e) {
            if (count == 1) {
                first.failure = e;
                return first;
            }
            last = first; // perhaps one more key fits where the whole group does not
            try {
                keys.ensureRoomForKeys(1);
            } catch (RuntimeException | Error again) {
                first.failure = again;
                return first;
            }
        }
        WriteGroup.Member runFirst = null;
        long runStart = 0;
        for (WriteGroup.Member m = first; ; m = m.newer) {
            try {
                status.ensureWritable(); // an earlier member's rollover may have failed the store
                if (runFirst != null && writePos + m.length > segmentSize) {
                    writeRun(runFirst, m, runStart);
                    runFirst = null;
                }
                long offset = reserve(m.length);
                Segment seg = active;
                writePos = offset + m.length;
                reservedLsn += m.length;
                seg.addLive(m.length);
                RecordFormat.seal(m.record, 0, seg.salt(), offset);
                protocol.countPut(); // with nothing left to throw before the place
                m.placed(seg, offset, reservedLsn);
                if (runFirst == null) {
                    runFirst = m;
                    runStart = offset;
                }
            } catch (RuntimeException | Error e) {
                m.failure = e;
            }
            if (m == last) {
                break;
            }
        }
        if (runFirst != null) {
            writeRun(runFirst, last.newer, runStart);
        }
        return last;
    }

    /**
     * Writes the placed records from {@code runFirst} up to {@code end} (not included), which lie
     * one after another from {@code runStart} to the write position of the active segment: one
     * write of them joined when each write is a system call, else one copy each. Then moves the
     * written end past them. A failed write fails its members and leaves a hole that recovery
     * steps over.
     */
    private void writeRun(WriteGroup.Member runFirst, WriteGroup.Member end, long runStart) {
        Segment seg = runFirst.segment;
        int runLength = (int) (writePos - runStart);
        WriteGroup.Member m = runFirst;
        try {
            if (runFirst.newer == end || !seg.writer().writesBySystemCall()) {
                for (; m != end; m = m.newer) {
                    if (m.failure == null) {
                        seg.writer().write(m.offset, m.record, 0, m.length);
                    }
                }
            } else {
                byte[] joined = writeBuffer(runLength);
                for (WriteGroup.Member r = runFirst; r != end; r = r.newer) {
                    if (r.failure == null) {
                        System.arraycopy(r.record, 0, joined, (int) (r.offset - runStart), r.length);
                    }
                }
                seg.writer().write(runStart, joined, 0, runLength);
                m = end;
            }
        } catch (RuntimeException | Error e) {
            for (; m != end; m = m.newer) {
                if (m.failure == null) {
                    m.failure = e;
                    keys.abandon(seg, m.length);
                }
            }
        }
        copies.done(copies.add(seg, writePos, reservedLsn));
    }

    /**
     * Appends a tombstone when {@code key} has a value. Returns the LSN to wait for (0 for none),
     * with {@link #REMOVED} set when a live value was removed.
     */
    public long delete(byte[] key) {
        return protocol.exclusive(() -> {
            status.ensureWritable();
            int hash = KeyHash.hash(key);
            long current = keys.currentLocation(key, hash);
            if (current == 0 || Location.isDeleted(current)) {
                // Under ALWAYS, a "false" must not rest on a tombstone that a power loss could undo.
                return current != 0 && syncAlways && !keys.durable(current) ? appended() : 0;
            }
            boolean removed = !keys.expired(clock.millis());
            int len = RecordFormat.recordLength(RecordFormat.TOMBSTONE, key.length, 0);
            byte[] buf = writeBuffer(len);
            RecordFormat.encode(buf, 0, clock.millis(), RecordFormat.TOMBSTONE, 0L, key, null);
            long lsn = appendEncoded(buf, len, RecordFormat.TOMBSTONE, key, hash);
            return removed ? lsn | REMOVED : lsn;
        });
    }

    /**
     * Writes a record already encoded in {@code buf}, then points the key directory at it. The
     * appended count moves before the directory does, so a reader who finds the record and then
     * reads the count waits for a force that covers it. Under the write lock, no put publishing.
     */
    private long appendEncoded(byte[] buf, int len, int flags, byte[] key, int hash) {
        keys.ensureRoomForKeys(1);
        long offset = reserve(len);
        Segment seg = active;
        write(seg, offset, buf, len);
        long lsn = written(seg, offset, len);
        keys.index(seg, offset, len, flags, key, 0, key.length, hash);
        return lsn;
    }

    /**
     * Seals a record to its place at {@code offset} of {@code seg} and writes it there. Under
     * {@code lock}, with no copy in flight: the caller waited for the puts past the lock.
     */
    private void write(Segment seg, long offset, byte[] buf, int len) {
        RecordFormat.seal(buf, 0, seg.salt(), offset);
        seg.writer().write(offset, buf, 0, len);
    }

    /**
     * Moves the reservation and the written end past {@code len} bytes just written at
     * {@code offset} of {@code seg}; returns their LSN. Under the write lock, with no copy in flight.
     */
    private long written(Segment seg, long offset, int len) {
        writePos = offset + len;
        reservedLsn += len;
        copies.done(copies.add(seg, writePos, reservedLsn));
        return reservedLsn;
    }

    /**
     * Appends a batch of {@code total} bytes (its header included) as one unit: after a crash all
     * of it is there or none; readers see all of its keys or none (see {@link BatchFence}).
     */
    public long appendBatch(Batch ops, int total) {
        return protocol.exclusive(() -> {
            status.ensureWritable();
            return appendBatchLocked(ops, total);
        });
    }

    private long appendBatchLocked(Batch ops, int total) {
        int count = ops.size();
        keys.ensureRoomForKeys(count); // as if every member were a new key
        long offset = reserve(total);
        Segment seg = active;
        byte[] buf = writeBuffer(total);
        long now = clock.millis();
        int headerLen = RecordFormat.BATCH_HEADER_SIZE;
        int p = headerLen;
        for (int i = 0; i < count; i++) {
            long ttl = ops.ttlMillis(i);
            int flags = RecordFormat.IN_BATCH | (ops.value(i) == null ? RecordFormat.TOMBSTONE : (ttl > 0 ? RecordFormat.EXPIRES : 0));
            int len = RecordFormat.encode(buf, p, now, flags, ttl > 0 ? expiresAt(now, ttl) : 0L, ops.key(i), ops.value(i));
            RecordFormat.seal(buf, p, seg.salt(), offset + p);
            p += len;
        }
        RecordFormat.encodeBatchHeader(buf, 0, now, count, total - headerLen, RecordFormat.crc(buf, headerLen, total - headerLen));
        RecordFormat.seal(buf, 0, seg.salt(), offset);
        seg.writer().write(offset, buf, 0, total);
        long lsn = written(seg, offset, total);
        long[] offsets = new long[count];
        int[] lengths = new int[count];
        int[] flags = new int[count];
        byte[][] members = new byte[count][];
        p = headerLen;
        for (int i = 0; i < count; i++) {
            members[i] = ops.key(i);
            flags[i] = RecordFormat.flags(buf, p);
            lengths[i] = RecordFormat.recordLength(flags[i], members[i].length, RecordFormat.valueLength(buf, p));
            offsets[i] = offset + p;
            p += lengths[i];
        }
        // Readers never see half a batch: they repeat a read that overlapped this publication, and
        // the publication makes every read that can fail before it changes the first entry.
        fence.open();
        try {
            keys.indexBatch(seg, offsets, lengths, flags, members);
        } finally {
            fence.close();
        }
        return lsn;
    }

    private byte[] writeBuffer(int len) {
        if (writeScratch.length < len) {
            writeScratch = new byte[Math.max(len, writeScratch.length * 2)];
        }
        return writeScratch;
    }

    /** Offset for a record of {@code len} bytes in the active segment, rolling over when full. */
    private long reserve(int len) {
        if (writePos + len > segmentSize) {
            rollover();
        }
        return writePos;
    }

    /**
     * Seals the active segment and opens the next, once every copy into it has finished. Under
     * {@code ALWAYS} the sealed segment and the new file's name are forced before the write that
     * needs the new segment goes on; otherwise the next sync, the interval, a merge or close forces
     * both, and the sealed one's hint follows.
     */
    private void rollover() {
        RolloverEvent event = new RolloverEvent();
        event.begin();
        copies.awaitCopied();
        Segment old = active;
        old.writer().truncate(writePos);
        old.writer().sealed();
        if (syncAlways) {
            try {
                old.force(dir.backend());
            } catch (RuntimeException e) {
                throw status.fail(e);
            }
        }
        Segment created = table.create(nextId);
        nextId++;
        if (syncAlways) {
            try {
                dir.force();
            } catch (RuntimeException e) {
                throw status.fail(e);
            }
        } else {
            dir.changed();
            unforced.add(old);
        }
        active = created;
        writePos = created.end();
        hints.sealed(old);
        event.end();
        if (event.shouldCommit()) {
            event.store = dir.path().toString();
            event.sealedSegment = old.id();
            event.sealedBytes = old.end();
            event.newSegment = created.id();
            event.forced = syncAlways;
            event.commit();
        }
    }

    /**
     * Forces every record appended so far: sealed segments not yet forced (oldest first), the
     * active segment, then the directory if names changed in it. Only then are the active
     * segment's records durable: a write whose directory force failed was not acknowledged, so no
     * read may return it and close cuts it off. The group-commit leader only.
     */
    @Override
    public long forceAppended() {
        long target = appended(); // before active: records up to target are in it or in a sealed one
        Segment seg = active;
        long end = seg.end();
        unforced.forceAll();
        unforced.forceActive(seg);
        dir.forceIfChanged();
        seg.durableTo(end);
        hints.kick(); // the sealed segments just forced may have their hints now
        return target;
    }

    /**
     * The first step of a merge: seals the active segment so the merge may cover everything written
     * so far, lets {@code select} pick the inputs among every segment (the one just sealed included),
     * and reserves a gap of ids for the outputs. They must sort after every segment there is and
     * before every segment written from now on, so that replay order stays correct at every instant.
     * Null, with nothing sealed, when {@code select} picks none.
     */
    public Seal sealForMerge(UnaryOperator<List<Segment>> select) {
        // every record it seals is in the key directory, so liveness is decided right
        return protocol.exclusive(() -> {
            status.ensureWritable();
            List<Segment> all = table.inOrder();
            List<Segment> inputs = select.apply(all);
            if (inputs.isEmpty()) {
                return null;
            }
            Set<Long> chosen = new HashSet<>();
            inputs.forEach(seg -> chosen.add(seg.id()));
            long oldestKept = all.stream().mapToLong(Segment::id).filter(id -> !chosen.contains(id)).min().orElse(Long.MAX_VALUE);
            int reserve = inputs.size() + 1;
            long firstOut = nextId;
            if (firstOut + reserve + 1 > SegmentFiles.MAX_ID) {
                throw new BitCaskException("segment ids of " + dir + " are exhausted");
            }
            nextId += reserve;
            rollover();
            return new Seal(inputs, firstOut, reserve, oldestKept, all.size());
        });
    }

    /** Runs {@code action} as the one writer and returns its result: a merge's swap of locations. */
    public long asWriter(LongSupplier action) {
        return protocol.exclusive(action::getAsLong);
    }

    /** Marks the store closed as the one writer, so no write is halfway when close goes on. */
    public void markClosed() {
        protocol.exclusive(() -> {
            status.markClosed();
            return null;
        });
    }

    /** Every segment and the newest one's end, seen by the writer between two writes; for a backup. */
    public Snapshot snapshot() {
        // no put is copying: the newest end has no range still on its way
        return protocol.exclusive(() -> {
            status.ensureOpen();
            List<Segment> segs = table.inOrder();
            long newestEnd = segs.isEmpty() ? 0 : active == null ? segs.get(segs.size() - 1).end() : writePos;
            return new Snapshot(segs, newestEnd);
        });
    }

    /** Close only, once no writer is left: cuts the active segment at the end of its records. */
    public void cutActive() {
        active.writer().truncate(writePos);
    }

    /** Close only, after a failure under {@code ALWAYS}: cuts the active segment back to what was forced. */
    public void cutActiveToDurable() {
        active.writer().truncate(Math.max(active.durableEnd(), RecordFormat.FILE_HEADER_SIZE));
    }
}
