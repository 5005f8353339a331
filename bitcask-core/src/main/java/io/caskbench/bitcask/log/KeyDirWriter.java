package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Threading: {@link #publish} (or {@link #abandon}) on any putting thread, after the put's range
 * was counted by {@link WriteProtocol#reserve} and its record written; {@link #ensureRoomForKeys}
 * inside either way into the {@link WriteProtocol}, while puts may still publish (they only count);
 * everything else inside {@link WriteProtocol#exclusive} (or on recovery's thread, before any other
 * thread sees the store).
 *
 * <p>The only code that changes the key directory, and with it the live-byte accounting of
 * segments (the log writer only counts a put's record live as it writes it): a new record points
 * its key at itself and makes the record it replaced dead; a merge moves keys to their copies;
 * recovery replays records and hints through the same door.
 *
 * <p>A put publishes its record after it has released the log writer's lock, beside other puts (see
 * {@link KeyDir#publish}). Everything else that changes the directory (deletes, batches, a merge's
 * seal and swap, rebuilds, close) first waits, under the lock, until no put is left publishing: the
 * lock stops new ones, so the wait is for the few already past it, and the exclusive writer then has
 * the directory to itself.
 */
public final class KeyDirWriter {

    /** Final, safe everywhere. */
    private final KeyDir keyDir;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final Path dir;
    /**
     * Read buffer of the exclusive writer's key checks and expiry reads; the exclusive writer (or
     * recovery's thread). Nothing in it outlives the call that filled it.
     */
    private final byte[] readBuffer = new byte[RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + RecordFormat.MAX_KEY_LENGTH];
    /** Compares a slot's record with a key, reading into {@code readBuffer}. Final. */
    private final KeyDir.KeyCheck keyCheck = this::sameKey;
    /** The same check with the calling thread's own buffer, for publishing puts. Final. */
    private final KeyDir.KeyCheck publishCheck = this::sameKeyOnThisThread;
    /** Log order of two locations, for publishing puts. Final. */
    private final KeyDir.LogOrder order = this::later;
    /** Makes a replaced record dead, for publishing puts. Final. */
    private final KeyDir.Replaced replaced = this::replacedByPublish;
    /** Makes a replaced record dead, for the exclusive writer and recovery. Final. */
    private final KeyDir.Replaced replacedUnderLock = this::replacedByWriter;
    /** The writers' lock and the count of puts publishing; final, safe everywhere. */
    private final WriteProtocol protocol;
    /**
     * Slots that writes may still take without a recount, the puts publishing already counted; the
     * writer thread, under the log writer's lock. Good until the next rebuild only.
     */
    private long roomLeft;
    /** The key directory's rebuild count when {@code roomLeft} was counted: a rebuild may shrink the table. Writer thread. */
    private int roomCountedAt = -1;

    /**
     * The writer of {@code keyDir}. Under {@code ALWAYS} ({@code keepUndurableTombstones}), a
     * rebuild keeps a tombstone that a reader must still wait for.
     */
    public KeyDirWriter(KeyDir keyDir, SegmentTable table, Path dir, WriteProtocol protocol, boolean keepUndurableTombstones) {
        this.protocol = protocol;
        this.keyDir = keyDir;
        this.table = table;
        this.dir = dir;
        if (keepUndurableTombstones) {
            keyDir.keepDeleted(location -> !durable(location));
        }
    }

    /**
     * Refuses a write, before any byte of it reaches the disk, that the key directory could not hold.
     * The puts still publishing count as new keys; a rebuild waits for them first. The count of free
     * slots is kept here and only recounted when spent, since recounting reads counters that the
     * other core is writing.
     */
    public void ensureRoomForKeys(int keys) {
        if (roomLeft >= keys && keyDir.rebuilds() == roomCountedAt) {
            roomLeft -= keys;
            return;
        }
        long inFlight = protocol.publishing();
        long free = keyDir.freeSlots() - inFlight;
        if (free < keys) {
            protocol.awaitPublished();
            if (!keyDir.makeRoom(keys)) {
                throw new BitCaskException("the key directory of " + dir + " is full at " + keyDir.size()
                        + " keys; delete keys or split the data over several stores");
            }
            free = keyDir.freeSlots();
        }
        roomLeft = free - keys;
        roomCountedAt = keyDir.rebuilds();
    }

    /** Slots of the key directory's table. */
    public int capacity() {
        return keyDir.capacity();
    }

    /** {@link KeyDir#warm}: open calls it before it replays a band of hashes. */
    public long warm(int firstHash, int lastHash) {
        return keyDir.warm(firstHash, lastHash);
    }

    /** Points the key directory at a record just written or replayed, and keeps the byte accounting. */
    public void index(Segment seg, long offset, int len, int flags, byte[] key, int keyOff, int keyLength, int hash) {
        index(seg, offset, len, flags, key, keyOff, keyLength, hash, keyCheck);
    }

    /**
     * Points the key directory at every record of a batch just written in {@code seg}, or at none:
     * member {@code i} is {@code keys[i]}'s record of {@code lengths[i]} bytes and {@code flags[i]}
     * at {@code offsets[i]} (increasing). Every read that can fail, the check of each key against
     * its previous record, is made before any entry changes; the entries are then changed with a
     * check that answers from what those reads found, so that part reads nothing and cannot fail
     * on I/O. When a read throws, the directory is as it was and the batch's records stay dead.
     */
    public void indexBatch(Segment seg, long[] offsets, int[] lengths, int[] flags, byte[][] keys) {
        int count = keys.length;
        int[] hashes = new int[count];
        long[] found = new long[count];
        long[] own = new long[count];
        for (int i = 0; i < count; i++) {
            hashes[i] = KeyHash.hash(keys[i]);
            long current = keyDir.locate(hashes[i], keys[i], 0, keys[i].length, keyCheck); // may throw: nothing changed yet
            found[i] = current == 0 ? -1 : Location.record(current);
            own[i] = Location.of(seg.slot(), offsets[i]);
        }
        int[] member = new int[1];
        // A slot holds the member's key when it holds the record the first pass found for that key, or
        // an earlier member's record of the same key; any other slot, whatever its hash, holds another key.
        KeyDir.KeyCheck known = (location, length, key, keyOff, keyLength) -> {
            int m = member[0];
            if (location == found[m]) {
                return true;
            }
            int earlier = Arrays.binarySearch(own, 0, m, location);
            return earlier >= 0 && Arrays.equals(keys[earlier], 0, keys[earlier].length, key, keyOff, keyOff + keyLength);
        };
        for (int i = 0; i < count; i++) {
            member[0] = i;
            index(seg, offsets[i], lengths[i], flags[i], keys[i], 0, keys[i].length, hashes[i], known);
        }
    }

    private void index(Segment seg, long offset, int len, int flags, byte[] key, int keyOff, int keyLength, int hash,
                       KeyDir.KeyCheck check) {
        long loc = Location.of(seg.slot(), offset);
        if ((flags & RecordFormat.TOMBSTONE) != 0) {
            seg.tombstones().add(offset, len); // a merge finds it there; first, as the record is on the disk even if this fails
            keyDir.delete(hash, key, keyOff, keyLength, loc, len, check, replacedUnderLock);
        } else {
            keyDir.put(hash, key, keyOff, keyLength, loc, len, check, replacedUnderLock);
            seg.addLive(len);
        }
    }

    /**
     * Points the key directory at a put's record just written, beside other puts: the newest record
     * in the log wins, whichever publishes first, and the other becomes dead. Any thread, once after
     * {@link WriteProtocol#reserve}, without the lock; {@link WriteProtocol#exclusive} waits for it.
     */
    public void publish(Segment seg, long offset, int len, byte[] key, int hash) {
        try {
            long previous = keyDir.publish(hash, key, 0, key.length, Location.of(seg.slot(), offset), len,
                    publishCheck, order, replaced);
            if (previous == KeyDir.BUSY) {
                seg.addDead(len); // the log writer counted it live when it wrote it
            }
        } catch (RuntimeException | Error e) {
            seg.addDead(len); // never published (a failure comes before the slot changes), yet counted live
            throw e;
        } finally {
            protocol.published(); // last: a waiter then sees the slot and the dead bytes both
        }
    }

    /**
     * Ends what {@link WriteProtocol#reserve} counted for a put whose copy failed: its record was counted
     * live and never written, so it is dead. Any thread, instead of {@link #publish}.
     */
    public void abandon(Segment seg, int len) {
        try {
            seg.addDead(len);
        } finally {
            protocol.published();
        }
    }

    /**
     * The key's slot location: 0 when it has no slot, the tombstone's location with
     * {@link Location#DELETED} when deleted, else its record's. The exclusive writer.
     */
    public long currentLocation(byte[] key, int hash) {
        return keyDir.locate(hash, key, 0, key.length, keyCheck);
    }

    /**
     * True when the record at {@code location} (a live one, as {@link #currentLocation} returns it)
     * has expired at {@code now}. Reads its header, and its expiry when it has one. The exclusive writer.
     */
    public boolean expired(long location, long now) {
        Segment seg = table.of(location);
        long offset = Location.offset(location);
        seg.reader().read(offset, readBuffer, 0, RecordFormat.HEADER_SIZE);
        if ((RecordFormat.flags(readBuffer, 0) & RecordFormat.EXPIRES) == 0) {
            return false;
        }
        seg.reader().read(offset + RecordFormat.HEADER_SIZE, readBuffer, RecordFormat.HEADER_SIZE, RecordFormat.EXPIRY_SIZE);
        long expiresAt = RecordFormat.expiresAt(readBuffer, 0);
        return expiresAt != 0 && expiresAt <= now;
    }

    /** True when the record at {@code location} is known to be on the device. */
    public boolean durable(long location) {
        Segment seg = table.of(location);
        return seg == null || Location.offset(location) < seg.durableEnd();
    }

    /**
     * Points a key from its record at {@code from} to the merge's copy at {@code offset} of
     * {@code to}, unless a write moved the key meanwhile; true when it was moved.
     */
    public boolean relocate(int hash, long from, Segment to, long offset, int length) {
        if (!keyDir.relocate(hash, from, Location.of(to.slot(), offset))) {
            return false;
        }
        table.of(from).addLive(-length);
        to.addLive(length);
        return true;
    }

    /** Drops what still points into merged segments: tombstones and expired records, which the merge did not copy. */
    public void dropEntriesOf(Collection<Segment> merged) {
        Set<Integer> slots = new HashSet<>();
        merged.forEach(seg -> slots.add(seg.slot()));
        keyDir.dropDeletedAnd(slots::contains);
    }

    private boolean sameKey(long location, int length, byte[] key, int keyOff, int keyLength) {
        return sameKey(location, length, key, keyOff, keyLength, readBuffer);
    }

    private boolean sameKeyOnThisThread(long location, int length, byte[] key, int keyOff, int keyLength) {
        // A putting thread's read buffer is idle while it puts.
        byte[] buf = Scratch.of(Scratch.READ, RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + keyLength);
        return sameKey(location, length, key, keyOff, keyLength, buf);
    }

    private boolean sameKey(long location, int length, byte[] key, int keyOff, int keyLength, byte[] buf) {
        Segment seg = table.of(location);
        if (seg == null) {
            return false;
        }
        int want = Math.min(length, RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + keyLength);
        if (want < RecordFormat.HEADER_SIZE) {
            return false;
        }
        seg.reader().read(Location.offset(location), buf, 0, want);
        int recordKeyOff = RecordFormat.keyOffset(RecordFormat.flags(buf, 0));
        return RecordFormat.keyLength(buf, 0) == keyLength && recordKeyOff + keyLength <= want
                && Arrays.equals(buf, recordKeyOff, recordKeyOff + keyLength, key, keyOff, keyOff + keyLength);
    }

    /** True when the record at {@code a} lies after the one at {@code b} in the log: a later segment, or later in the same one. */
    private boolean later(long a, long b) {
        if (Location.slot(a) == Location.slot(b)) {
            return Location.offset(a) > Location.offset(b);
        }
        Segment sa = table.of(a);
        Segment sb = table.of(b);
        return sb == null || (sa != null && sa.id() > sb.id());
    }

    private void replacedByPublish(long location, int length) {
        Segment old = table.of(location);
        if (old != null) {
            old.addDead(length);
        }
    }

    private void replacedByWriter(long location, int length) {
        Segment old = table.of(location);
        if (old != null) {
            old.addLive(-length); // no put is publishing: the exclusive writer's count needs no adder
        }
    }
}
