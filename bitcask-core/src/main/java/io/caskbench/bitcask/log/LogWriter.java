package io.caskbench.bitcask.log;

import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.Location;
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
 * Threading: any thread calls it; reservations, rollover and every change of the active segment
 * are made under the write lock; a put copies its record and publishes it after it releases the
 * lock; {@code active} and the written end are read anywhere without a lock.
 *
 * <p>The one writer of the log: it owns the active segment, appends records and batches to it,
 * and rolls over to a new segment when it is full ({@link Rollover}). A put encodes and checksums its record before
 * it takes the lock; under the lock it only checks for room and reserves its range (with a
 * rollover when the segment is full, which first waits for the copies into the old segment and,
 * under {@code ALWAYS}, forces it). After the lock it seals the record to its offset, copies it
 * into its range ({@code pwrite} or a copy into the mapping) beside other puts, and points the
 * key directory at it. The key directory takes concurrent publications by compare-and-set,
 * toward the record later in the log only, so of two puts of one key the later reservation wins
 * whichever copies or publishes first. Deletes (which read the directory before they write),
 * batches (whose keys must all appear at once) and every other exclusive change take the lock,
 * wait until the puts already past it have copied and published, and then write under the lock.
 *
 * <p>Copies finish out of order, so {@link Reservations} keeps the written end: a force counts
 * only bytes before it, and a segment's end moves only with it. A {@code kill -9} in the middle
 * of copies can leave a hole (a reserved range never written, or written in part) in front of a
 * put that returned; recovery steps over it (see {@code SegmentScanner}).
 *
 * <p>Every change takes the lock through {@link WriteProtocol}: a put by its way in for puts, all
 * else by the exclusive one.
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
    /** Encodes batches and publishes their keys inside the batch fence; final, safe everywhere. */
    private final BatchAppend batches;
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
    /** Buffer of deletes and batches, encoded under the lock; writer thread, under the write lock. */
    private byte[] writeScratch = new byte[4096];
    /** Bytes reserved since open; writer thread, under the write lock. */
    private long reservedLsn;
    /** Ranges still being copied, and the written end; final, safe everywhere. */
    private final Reservations copies = new Reservations(0);
    /** Seals a full segment and opens the next; holds the next id. Final; used under the write lock. */
    private final Rollover rollover;
    /** Where puts and batches are refused until merges catch up; final, checked under the write lock. */
    private final WriteLimit limit;

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
     * records up to its end, and whose next new segment is {@code nextId}; puts and batches are refused
     * past {@code limit}.
     */
    public LogWriter(StoreDirectory dir, StoreStatus status, SegmentTable table, WriteProtocol protocol, KeyDirWriter keys,
                     BatchFence fence, UnforcedSegments unforced, HintWriter hints, Clock clock, long segmentSize,
                     boolean syncAlways, Segment active, long nextId, WriteLimit limit) {
        this.protocol = protocol;
        this.limit = limit;
        this.dir = dir;
        this.status = status;
        this.table = table;
        this.keys = keys;
        this.batches = new BatchAppend(keys, fence);
        this.unforced = unforced;
        this.hints = hints;
        this.clock = clock;
        this.segmentSize = segmentSize;
        this.syncAlways = syncAlways;
        this.active = active;
        this.writePos = active == null ? 0 : active.end();
        this.rollover = new Rollover(dir, status, table, unforced, hints, copies, syncAlways, nextId);
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

    /** Bytes reserved so far: every write that returned lies before them, copies under way included. */
    @Override
    public long reserved() {
        return copies.reserved();
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
     * returns its LSN. The record is encoded before the lock, copied and published to the key
     * directory after it, so the lock covers only the room check and the reservation.
     *
     * @throws WriteLimit.Reached when the put would pass the write limit; nothing was reserved
     */
    public long put(byte[] key, byte[] value, long ttlMillis) {
        int flags = ttlMillis > 0 ? RecordFormat.EXPIRES : 0;
        long expiresAt = ttlMillis > 0 ? expiresAt(clock.millis(), ttlMillis) : 0L;
        int hash = KeyHash.hash(key);
        int len = RecordFormat.recordLength(flags, key.length, value.length);
        byte[] buf = Scratch.of(Scratch.WRITE, len);
        RecordFormat.encode(buf, 0, clock.millis(), flags, expiresAt, key, value);
        Reservations.Range range = protocol.reserve(() -> reserveRange(len));
        Segment seg = range.segment;
        long offset = range.end - len;
        try {
            RecordFormat.seal(buf, 0, seg.salt(), offset);
            seg.writer().write(offset, buf, 0, len);
        } catch (RuntimeException | Error e) {
            copies.done(range); // a hole now, which recovery steps over; the ranges after it go on
            keys.abandon(seg, len);
            throw e;
        }
        copies.done(range);
        keys.publish(seg, offset, len, key, hash); // ends what reserve() counted, even when it throws
        return range.lsn;
    }

    /**
     * A put's step under the lock: room in the key directory, then its range in the active segment,
     * counted live until its publication finds a later record of the key.
     */
    private Reservations.Range reserveRange(int len) {
        status.ensureWritable();
        limit.check(reservedLsn + len);
        keys.ensureRoomForKeys(1);
        long offset = reserve(len);
        Segment seg = active;
        writePos = offset + len;
        reservedLsn += len;
        seg.addLive(len);
        return copies.add(seg, writePos, reservedLsn);
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
            boolean removed = !keys.expired(current, clock.millis());
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
     * of it is there or none; readers see all of its keys or none (see {@link BatchAppend}). A
     * {@code limited} batch (one with a put) is refused past the write limit.
     *
     * @throws WriteLimit.Reached when a limited batch would pass the write limit; nothing was written
     */
    public long appendBatch(Batch ops, int total, boolean limited) {
        return protocol.exclusive(() -> {
            status.ensureWritable();
            if (limited) {
                limit.check(reservedLsn + total);
            }
            return appendBatchLocked(ops, total);
        });
    }

    private long appendBatchLocked(Batch ops, int total) {
        keys.ensureRoomForKeys(ops.size()); // as if every member were a new key
        long offset = reserve(total);
        Segment seg = active;
        byte[] buf = writeBuffer(total);
        BatchAppend.encode(ops, total, buf, seg, offset, clock.millis());
        seg.writer().write(offset, buf, 0, total);
        long lsn = written(seg, offset, total);
        batches.publish(ops, seg, offset, buf);
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

    /** Seals the active segment and makes the next one active (see {@link Rollover#next}). Under the write lock. */
    private void rollover() {
        Segment created = rollover.next(active, writePos);
        active = created;
        writePos = created.end();
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
            long firstOut = rollover.reserveIds(reserve);
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
