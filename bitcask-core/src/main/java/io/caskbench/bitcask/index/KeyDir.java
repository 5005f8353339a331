package io.caskbench.bitcask.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The key directory: an open-addressing hash table from key to the location of its newest record.
 *
 * <p>Keys are not kept in memory. A slot holds the key's 32-bit hash, the record length and the
 * record location (segment slot and offset) in two {@code long}s, 16 bytes in all; the key itself
 * is checked against the record on disk whenever a hash matches. A slot, once taken by a key,
 * belongs to that key until the table is rebuilt, so a reader that matches a slot's hash and
 * verifies the key can trust that slot.
 *
 * <p>Threading: one writer at a time (the caller holds the store's write lock) mutates the table;
 * any number of readers probe it without locks. A writer stores the meta word first and publishes
 * the location with release semantics; a reader loads the location with acquire semantics first.
 * A reader that races an update of the same slot may pair a new length with an old location; it
 * detects that because the record's own header disagrees, and probes again. Growth builds a new
 * table and publishes it in one volatile write.
 */
public final class KeyDir {

    /** Location flag: the key's newest record is a tombstone at the rest of the location. */
    public static final long DELETED = 1L << 62;
    private static final int OFFSET_BITS = 40;
    private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
    /** Largest segment slot a location can hold. */
    public static final int MAX_SEGMENT_SLOT = (1 << 22) - 1;
    private static final int MIN_CAPACITY = 1 << 10;
    private static final double MAX_LOAD = 0.75;

    private static final VarHandle LOCS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle LIVE;

    static {
        try {
            LIVE = MethodHandles.lookup().findVarHandle(KeyDir.class, "live", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Checks a candidate slot's key against the record on disk. */
    @FunctionalInterface
    public interface KeyCheck {
        /**
         * True when the record at {@code location} (without flags) of {@code length} bytes holds
         * the key {@code key[keyOff, keyOff + keyLength)}.
         */
        boolean sameKey(long location, int length, byte[] key, int keyOff, int keyLength);
    }

    /**
     * An immutable-size table; slots are read lock-free. Slot {@code i} is
     * {@code entries[2i]} (hash and length) and {@code entries[2i + 1]} (location): both halves of a
     * slot share a cache line, so a probe costs one miss, not two.
     */
    public static final class Table {
        final long[] entries;
        final int mask;
        final int shift;

        Table(int capacity) {
            this.entries = new long[capacity * 2];
            this.mask = capacity - 1;
            this.shift = 32 - Integer.numberOfTrailingZeros(capacity);
        }

        long meta(int i) {
            return entries[2 * i];
        }

        long loc(int i) {
            return entries[2 * i + 1];
        }

        void set(int i, long meta, long loc) {
            entries[2 * i] = meta;
            LOCS.setRelease(entries, 2 * i + 1, loc);
        }

        /**
         * First slot to probe for {@code hash}: its top bits. Slots then rise with the unsigned
         * hash at every capacity, so keys inserted in hash order (hint files are written so) fill
         * the table front to back instead of at random.
         */
        public int first(int hash) {
            return hash >>> shift;
        }

        /** Slot after {@code i}. */
        public int next(int i) {
            return (i + 1) & mask;
        }

        /** Location of slot {@code i} (acquire); 0 for an empty slot, which ends every probe. */
        public long location(int i) {
            return (long) LOCS.getAcquire(entries, 2 * i + 1);
        }

        /** Hash of the key in slot {@code i}; read only after {@link #location} returned non-zero. */
        public int hash(int i) {
            return (int) (entries[2 * i] >>> 32);
        }

        /** Record length of slot {@code i}; may be newer than the location read before it. */
        public int length(int i) {
            return (int) entries[2 * i];
        }

        /** Number of slots. */
        public int capacity() {
            return mask + 1;
        }
    }

    private volatile Table table;
    private long used;
    /** Written by the one writer with release stores: a full fence per put would cost more than the put. */
    private long live;
    private int replacedLength;

    /** A directory sized for {@code expectedKeys} without growing. */
    public KeyDir(long expectedKeys) {
        this.table = new Table(capacityFor(expectedKeys));
    }

    private static int capacityFor(long keys) {
        long want = Math.max(MIN_CAPACITY, (long) Math.ceil(keys / MAX_LOAD) + 1);
        if (want > (1 << 30)) {
            throw new IllegalArgumentException("too many keys for one key directory: " + keys);
        }
        return Integer.highestOneBit((int) want - 1) << 1;
    }

    /** Packs a segment slot and an offset into a location. */
    public static long location(int segmentSlot, long offset) {
        return ((long) segmentSlot << OFFSET_BITS) | offset;
    }

    /** Segment slot of a location. */
    public static int segmentSlot(long location) {
        return (int) ((location & ~DELETED) >>> OFFSET_BITS);
    }

    /** Offset of a location. */
    public static long offset(long location) {
        return location & OFFSET_MASK;
    }

    /** True when the location marks a deleted key. */
    public static boolean isDeleted(long location) {
        return (location & DELETED) != 0;
    }

    /** The current table, for lock-free probing. */
    public Table table() {
        return table;
    }

    /** Live keys. */
    public long size() {
        return (long) LIVE.getAcquire(this);
    }

    /**
     * Grows the table now so that {@code keys} keys fit without growing again; open calls it with
     * the entry counts of the hint files. Writer only.
     */
    public void reserve(long keys) {
        int capacity = capacityFor(keys);
        if (capacity > table.capacity()) {
            rebuild(capacity);
        }
    }

    /** Heap bytes held by the table. */
    public long heapBytes() {
        return (long) table.capacity() * 16 + 32;
    }

    /** Length of the record replaced by the last {@link #put} or {@link #delete}, 0 when none. */
    public int replacedLength() {
        return replacedLength;
    }

    /**
     * Points {@code key} at a new record. Writer only.
     *
     * @return the previous location, 0 when the key was absent (it may carry {@link #DELETED})
     */
    public long put(int hash, byte[] key, int keyOff, int keyLength, long location, int length, KeyCheck check) {
        Table t = table;
        int i = find(t, hash, key, keyOff, keyLength, check);
        long previous = 0;
        replacedLength = 0;
        if (i >= 0) {
            previous = t.loc(i);
            replacedLength = (int) t.meta(i);
        } else {
            if (used + 1 > (long) (t.capacity() * MAX_LOAD)) {
                t = rebuild(t.capacity() * 2);
                i = emptySlot(t, hash);
            } else {
                i = -i - 1; // find stopped at this empty slot
            }
            used++;
        }
        t.set(i, ((long) hash << 32) | (length & 0xFFFFFFFFL), location);
        if (previous == 0 || isDeleted(previous)) {
            LIVE.setRelease(this, live + 1);
        }
        return previous;
    }

    /**
     * Marks {@code key} deleted, pointing at its tombstone. Writer only.
     *
     * @return the previous location, 0 when the key had no slot (nothing is changed then)
     */
    public long delete(int hash, byte[] key, int keyOff, int keyLength, long tombstone, int length, KeyCheck check) {
        Table t = table;
        int i = find(t, hash, key, keyOff, keyLength, check);
        replacedLength = 0;
        if (i < 0) {
            return 0;
        }
        long previous = t.loc(i);
        replacedLength = (int) t.meta(i);
        t.set(i, ((long) hash << 32) | (length & 0xFFFFFFFFL), tombstone | DELETED);
        if (!isDeleted(previous)) {
            LIVE.setRelease(this, live - 1);
        }
        return previous;
    }

    /**
     * Moves the entry that points at {@code from} to {@code to}, if it still points there: a
     * merge relocating a record must lose to any write that happened meanwhile. Writer only.
     *
     * @return true when the entry was moved
     */
    public boolean relocate(int hash, long from, long to) {
        Table t = table;
        for (int i = t.first(hash); ; i = t.next(i)) {
            long loc = t.loc(i);
            if (loc == 0) {
                return false;
            }
            if (loc == from) {
                LOCS.setRelease(t.entries, 2 * i + 1, to);
                return true;
            }
        }
    }

    /** Slot of the key, or {@code -(empty slot) - 1} where it would go. Writer only (reads plain fields). */
    private static int find(Table t, int hash, byte[] key, int keyOff, int keyLength, KeyCheck check) {
        for (int i = t.first(hash); ; i = t.next(i)) {
            long loc = t.loc(i);
            if (loc == 0) {
                return -i - 1;
            }
            long meta = t.meta(i);
            if ((int) (meta >>> 32) == hash && loc != DELETED
                    && check.sameKey(loc & ~DELETED, (int) meta, key, keyOff, keyLength)) {
                return i;
            }
        }
    }

    private static int emptySlot(Table t, int hash) {
        int i = t.first(hash);
        while (t.loc(i) != 0) {
            i = t.next(i);
        }
        return i;
    }

    /**
     * Rebuilds the table without deleted entries and without entries whose segment slot
     * {@code dropSegment} accepts: after a merge, the entries left pointing into the merged
     * segments are tombstones and expired records, which the merge did not copy. Writer only.
     */
    public void dropDeletedAnd(java.util.function.IntPredicate dropSegment) {
        rebuild(table.capacity(), dropSegment);
    }

    private Table rebuild(int capacity) {
        return rebuild(capacity, slot -> false);
    }

    private Table rebuild(int capacity, java.util.function.IntPredicate dropSegment) {
        Table old = table;
        Table t = new Table(Math.max(capacity, capacityFor(live + 1)));
        long count = 0;
        for (int j = 0; j < old.capacity(); j++) {
            long loc = old.loc(j);
            if (loc != 0 && !isDeleted(loc) && !dropSegment.test(segmentSlot(loc))) {
                int i = emptySlot(t, (int) (old.meta(j) >>> 32));
                t.entries[2 * i] = old.meta(j);
                t.entries[2 * i + 1] = loc;
                count++;
            }
        }
        used = count;
        LIVE.setRelease(this, count);
        table = t;
        return t;
    }

    /** Visits every live entry of a table snapshot; weakly consistent. */
    public void forEachLive(EntryVisitor visitor) {
        Table t = table;
        for (int i = 0; i < t.capacity(); i++) {
            long loc = t.location(i);
            if (loc != 0 && !isDeleted(loc)) {
                visitor.visit(t.hash(i), loc, t.length(i));
            }
        }
    }

    /** Receives directory entries. */
    @FunctionalInterface
    public interface EntryVisitor {
        /** One live entry. */
        void visit(int hash, long location, int length);
    }
}
