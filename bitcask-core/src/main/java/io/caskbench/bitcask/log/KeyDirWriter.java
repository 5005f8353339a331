package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskException;
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
 * Threading: the writer thread, under the log writer's lock (or recovery's thread, before any
 * other thread sees the store).
 *
 * <p>The only code that changes the key directory and the live-byte accounting of segments: a new
 * record points its key at itself and makes the record it replaced dead; a merge moves keys to
 * their copies; recovery replays records and hints through the same door.
 */
public final class KeyDirWriter {

    /** Final, safe everywhere. */
    private final KeyDir keyDir;
    /** Final, safe everywhere. */
    private final SegmentTable table;
    /** Final, safe everywhere. */
    private final Path dir;
    /** Header and key of the record a key check read last; writer thread. */
    private final byte[] checkScratch = new byte[RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + RecordFormat.MAX_KEY_LENGTH];
    /** Compares a slot's record with a key; leaves its header in {@code checkScratch}. Final. */
    private final KeyDir.KeyCheck keyCheck = this::sameKey;

    /**
     * The writer of {@code keyDir}. Under {@code ALWAYS} ({@code keepUndurableTombstones}), a
     * rebuild keeps a tombstone that a reader must still wait for.
     */
    public KeyDirWriter(KeyDir keyDir, SegmentTable table, Path dir, boolean keepUndurableTombstones) {
        this.keyDir = keyDir;
        this.table = table;
        this.dir = dir;
        if (keepUndurableTombstones) {
            keyDir.keepDeleted(location -> !durable(location));
        }
    }

    /** Refuses a write, before any byte of it reaches the disk, that the key directory could not hold. */
    public void ensureRoomForKeys(int keys) {
        if (!keyDir.makeRoom(keys)) {
            throw new BitCaskException("the key directory of " + dir + " is full at " + keyDir.size()
                    + " keys; delete keys or split the data over several stores");
        }
    }

    /** Points the key directory at a record just written or replayed, and keeps the byte accounting. */
    public void index(Segment seg, long offset, int len, int flags, byte[] key, int keyOff, int keyLength, int hash) {
        long loc = Location.of(seg.slot(), offset);
        long previous;
        if ((flags & RecordFormat.TOMBSTONE) != 0) {
            previous = keyDir.delete(hash, key, keyOff, keyLength, loc, len, keyCheck);
        } else {
            previous = keyDir.put(hash, key, keyOff, keyLength, loc, len, keyCheck);
            seg.addLive(len);
        }
        if (previous != 0 && !Location.isDeleted(previous)) {
            Segment old = table.of(previous);
            if (old != null) {
                old.addLive(-keyDir.replacedLength());
            }
        }
    }

    /**
     * The key's slot location: 0 when it has no slot, the tombstone's location with
     * {@link Location#DELETED} when deleted, else its record's. Leaves that record's header where
     * {@link #expired} reads it.
     */
    public long currentLocation(byte[] key, int hash) {
        return keyDir.locate(hash, key, 0, key.length, keyCheck);
    }

    /** True when the live record that {@link #currentLocation} just found has expired at {@code now}. */
    public boolean expired(long now) {
        long expiresAt = RecordFormat.expiresAt(checkScratch, 0);
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
        Segment seg = table.of(location);
        if (seg == null) {
            return false;
        }
        int want = Math.min(length, RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + keyLength);
        if (want < RecordFormat.HEADER_SIZE) {
            return false;
        }
        seg.reader().read(Location.offset(location), checkScratch, 0, want);
        int recordKeyOff = RecordFormat.keyOffset(RecordFormat.flags(checkScratch, 0));
        return RecordFormat.keyLength(checkScratch, 0) == keyLength && recordKeyOff + keyLength <= want
                && Arrays.equals(checkScratch, recordKeyOff, recordKeyOff + keyLength, key, keyOff, keyOff + keyLength);
    }
}
