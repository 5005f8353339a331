package io.caskbench.bitcask.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntPredicate;
import java.util.function.LongPredicate;

/**
 * Threading: one writer at a time, under the log writer's lock; any number of readers without a lock (see below).
 *
 * <p>The key directory: an open-addressing hash table from key to the location of its newest record.
 *
 * <p>Keys are not kept in memory. A slot holds the key's 32-bit hash, the record length and the
 * record location (segment slot and offset) in two {@code long}s, 16 bytes in all; the key itself
 * is checked against the record on disk whenever a hash matches. A slot, once taken by a key,
 * belongs to that key until the table is rebuilt, so a reader that matches a slot's hash and
 * verifies the key can trust that slot.
 *
 * <p>In detail: one writer at a time (the caller holds the log writer's lock) mutates the table;
 * any number of readers probe it without locks. An insert into an empty slot stores the meta word
 * and then publishes the location with a release store. An update of a taken slot first marks its
 * location {@link #BUSY}, then stores the new meta word and the new location, each with a release
 * store. A reader loads the location and then the meta word with acquire loads; when the pair it
 * read fails to describe the record on disk, it asks {@link Table#unchanged}, which sees the mark
 * or the new location of any update that could have torn the pair, so a lost race is retried
 * rather than reported as corruption. Growth builds a new table and publishes it in one volatile
 * write; a table is sized by the live keys, so deletes and merges let it shrink again.
 */
public final class KeyDir {

    // Over 400 lines: the table and the operations that publish into it form one protocol (the
    // busy mark, release stores, rebuilds), which is easier to check whole than split in two.

    /** Location of a slot whose update is under way; never a real location (bit 63 is never set). */
    public static final long BUSY = Long.MIN_VALUE;
    /** Most slots a table can have: two longs a slot must fit in one array. */
    public static final int MAX_CAPACITY = 1 << 29;
    /** Most keys one key directory holds. */
    public static final long MAX_KEYS = (long) (MAX_CAPACITY * 0.75);
    private static final int MIN_CAPACITY = 1 << 10;
    private static final double MAX_LOAD = 0.75;

    private static final VarHandle LOCS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int SPINS_BEFORE_YIELD = 64;
    private static final VarHandle LIVE;

    static {
        try {
            LIVE = MethodHandles.lookup().findVarHandle(KeyDir.class, "live", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The smallest the table may shrink to: what the store was told to expect. Final. */
    private final int minCapacity;
    /** The largest the table may grow to. Final. */
    private final int maxCapacity;
    /** Any thread reads it without a lock; writer thread, under the log writer's lock, publishes a new one. */
    private volatile Table table;
    /** Taken slots, deleted keys included; writer thread, under the log writer's lock. */
    private long used;
    /** Live keys; writer thread, under the log writer's lock, with release stores (a fence per put would cost more than the put). */
    private long live;
    /** Length of the record the last put or delete replaced; writer thread, under the log writer's lock. */
    private int replacedLength;
    /** Deleted entries a rebuild keeps; writer thread, under the log writer's lock. */
    private LongPredicate keepDeleted = loc -> false;

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
        /** Slots, two longs each; any thread reads with acquire loads, the writer thread stores with release. */
        final long[] entries;
        /** Final. */
        final int mask;
        /** Final. */
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

        /** Fills an empty slot: the meta word, then the location that publishes it. Writer only. */
        void insert(int i, long meta, long loc) {
            entries[2 * i] = meta;
            LOCS.setRelease(entries, 2 * i + 1, loc);
        }

        /**
         * First half of an update of a taken slot: marks it busy, then stores the new meta word.
         * A reader that sees the new meta word with the old location then finds the mark in
         * {@link #unchanged}. Writer only.
         */
        void beginUpdate(int i, long meta) {
            LOCS.setOpaque(entries, 2 * i + 1, BUSY);
            LOCS.setRelease(entries, 2 * i, meta);
        }

        /** Second half of an update: publishes the new location. Writer only. */
        void publish(int i, long loc) {
            LOCS.setRelease(entries, 2 * i + 1, loc);
        }

        /**
         * First slot to probe for {@code hash}: its top bits. Slots then rise with the unsigned
         * hash at every capacity, so keys inserted in hash order fill the table front to back
         * instead of at random. Hint files are sorted by the signed hash, so loading them fills the
         * upper half front to back, then the lower half.
         */
        public int first(int hash) {
            return hash >>> shift;
        }

        /** Slot after {@code i}. */
        public int next(int i) {
            return (i + 1) & mask;
        }

        /**
         * Location of slot {@code i} (acquire); 0 for an empty slot, which ends every probe. Waits
         * out an update under way, which is two stores long unless the writer was descheduled.
         */
        public long location(int i) {
            long loc = (long) LOCS.getAcquire(entries, 2 * i + 1);
            for (int spins = 0; loc == BUSY; spins++) {
                if (spins < SPINS_BEFORE_YIELD) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
                loc = (long) LOCS.getAcquire(entries, 2 * i + 1);
            }
            return loc;
        }

        /** Hash of the key in slot {@code i}; read only after {@link #location} returned non-zero. */
        public int hash(int i) {
            return (int) ((long) LOCS.getAcquire(entries, 2 * i) >>> 32);
        }

        /** Record length of slot {@code i} (acquire); may be newer than the location read before it. */
        public int length(int i) {
            return (int) (long) LOCS.getAcquire(entries, 2 * i);
        }

        /**
         * True when slot {@code i} still holds exactly {@code loc} and {@code len}, with no update
         * under way: the pair a reader read was then a consistent one. Never waits.
         */
        public boolean unchanged(int i, long loc, int len) {
            return (long) LOCS.getAcquire(entries, 2 * i + 1) == loc && (int) (long) LOCS.getAcquire(entries, 2 * i) == len;
        }

        /** Number of slots. */
        public int capacity() {
            return mask + 1;
        }

        /**
         * The probe by key: the slot of the key, or {@code -(empty slot) - 1} where it would go.
         * Writer only (plain loads). The lock-free reader probes with {@link #first}, {@link #next}
         * and {@link #location} itself, as it checks the key against the whole record it reads.
         */
        int find(int hash, byte[] key, int keyOff, int keyLength, KeyCheck check) {
            for (int i = first(hash); ; i = next(i)) {
                long loc = loc(i);
                if (loc == 0) {
                    return -i - 1;
                }
                long meta = meta(i);
                if ((int) (meta >>> 32) == hash && loc != Location.DELETED
                        && check.sameKey(Location.record(loc), (int) meta, key, keyOff, keyLength)) {
                    return i;
                }
            }
        }

        /** The probe by location: the slot for {@code hash} that holds exactly {@code location}, or -1. Any thread. */
        int slotHolding(int hash, long location) {
            for (int i = first(hash); ; i = next(i)) {
                long loc = location(i);
                if (loc == 0) {
                    return -1;
                }
                if (loc == location) {
                    return i;
                }
            }
        }
    }

    /** A directory sized for {@code expectedKeys} without growing. */
    public KeyDir(long expectedKeys) {
        this(expectedKeys, MAX_CAPACITY);
    }

    /** A directory sized for {@code expectedKeys} that never grows past {@code maxCapacity} slots. */
    KeyDir(long expectedKeys, int maxCapacity) {
        this.maxCapacity = maxCapacity;
        this.minCapacity = capacityFor(expectedKeys, maxCapacity);
        this.table = new Table(minCapacity);
    }

    /** Smallest power-of-two capacity that holds {@code keys} within the load factor. */
    private static int capacityFor(long keys, int maxCapacity) {
        long want = Math.max(MIN_CAPACITY, (long) Math.ceil(keys / MAX_LOAD) + 1);
        if (want > maxCapacity) {
            throw new IllegalArgumentException("a key directory holds at most " + maxKeys(maxCapacity) + " keys: " + keys);
        }
        return Integer.highestOneBit((int) want - 1) << 1;
    }

    private static long maxKeys(int capacity) {
        return (long) (capacity * MAX_LOAD);
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
        int capacity = capacityFor(keys, maxCapacity);
        if (capacity > table.capacity()) {
            rebuild(capacity, slot -> false, keepDeleted);
        }
    }

    /**
     * Makes room for {@code keys} more keys, rebuilding the table if it must; false when it
     * cannot, because the table would outgrow its largest size. A writer calls this before it
     * writes a record, so that no record reaches the disk that the directory cannot then hold.
     * Writer only.
     */
    public boolean makeRoom(int keys) {
        if (used + keys <= maxKeys(table.capacity())) {
            return true;
        }
        rebuild(growthCapacity(keys), slot -> false, keepDeleted);
        return used + keys <= maxKeys(table.capacity());
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
     * @return the previous location, 0 when the key was absent (it may carry {@link Location#DELETED})
     */
    public long put(int hash, byte[] key, int keyOff, int keyLength, long location, int length, KeyCheck check) {
        Table t = table;
        int i = t.find(hash, key, keyOff, keyLength, check);
        long previous = 0;
        replacedLength = 0;
        if (i >= 0) {
            previous = t.loc(i);
            replacedLength = (int) t.meta(i);
        } else {
            if (used + 1 > maxKeys(t.capacity())) {
                if (!makeRoom(1)) {
                    throw new IllegalStateException("key directory is full at " + live + " keys");
                }
                t = table;
                i = emptySlot(t, hash);
            } else {
                i = -i - 1; // find stopped at this empty slot
            }
            used++;
            t.insert(i, ((long) hash << 32) | (length & 0xFFFFFFFFL), location);
            LIVE.setRelease(this, live + 1);
            return 0;
        }
        t.beginUpdate(i, ((long) hash << 32) | (length & 0xFFFFFFFFL));
        t.publish(i, location);
        if (previous == 0 || Location.isDeleted(previous)) {
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
        int i = t.find(hash, key, keyOff, keyLength, check);
        replacedLength = 0;
        if (i < 0) {
            return 0;
        }
        long previous = t.loc(i);
        replacedLength = (int) t.meta(i);
        t.beginUpdate(i, ((long) hash << 32) | (length & 0xFFFFFFFFL));
        t.publish(i, tombstone | Location.DELETED);
        if (!Location.isDeleted(previous)) {
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
        int i = t.slotHolding(hash, from);
        if (i < 0) {
            return false;
        }
        t.publish(i, to); // the length is the same: no reader can pair it wrongly
        return true;
    }

    /**
     * Location of {@code key}'s slot: 0 when it has none, else its record's or its tombstone's
     * (with {@link Location#DELETED}). Writer only.
     */
    public long locate(int hash, byte[] key, int keyOff, int keyLength, KeyCheck check) {
        Table t = table;
        int i = t.find(hash, key, keyOff, keyLength, check);
        return i < 0 ? 0 : t.loc(i);
    }

    /** True when the slot for {@code hash} points exactly at {@code location}; any thread, no lock. */
    public boolean pointsAt(int hash, long location) {
        return table.slotHolding(hash, location) >= 0;
    }

    private static int emptySlot(Table t, int hash) {
        int i = t.first(hash);
        while (t.loc(i) != 0) {
            i = t.next(i);
        }
        return i;
    }

    /**
     * Tells which deleted entries must survive a rebuild: a tombstone that is not yet durable keeps
     * its slot, so that a reader who finds it can wait for it. Writer only.
     */
    public void keepDeleted(LongPredicate keep) {
        this.keepDeleted = keep;
    }

    /**
     * Rebuilds the table without deleted entries and without entries whose segment slot
     * {@code dropSegment} accepts: after a merge, the entries left pointing into the merged
     * segments are tombstones and expired records, which the merge did not copy. The table is
     * sized anew for the keys left, so it shrinks after a merge that removed many. Writer only.
     */
    public void dropDeletedAnd(IntPredicate dropSegment) {
        rebuild(growthCapacity(1), dropSegment, keepDeleted);
    }

    /** Capacity for a rebuild: twice the live keys' worth, so rebuilds stay rare; within the bounds. */
    private int growthCapacity(int more) {
        long want = Math.max(MIN_CAPACITY, (long) Math.ceil(2 * (live + more) / MAX_LOAD));
        int capacity = want >= maxCapacity ? maxCapacity : Integer.highestOneBit((int) want - 1) << 1;
        return Math.max(minCapacity, capacity);
    }

    private Table rebuild(int capacity, IntPredicate dropSegment, LongPredicate keep) {
        Table old = table;
        Table t = new Table(capacity);
        long count = 0;
        long kept = 0;
        for (int j = 0; j < old.capacity(); j++) {
            long loc = old.loc(j);
            if (loc == 0 || dropSegment.test(Location.slot(loc)) || (Location.isDeleted(loc) && !keep.test(loc))) {
                continue;
            }
            int i = emptySlot(t, (int) (old.meta(j) >>> 32));
            t.entries[2 * i] = old.meta(j);
            t.entries[2 * i + 1] = loc;
            if (Location.isDeleted(loc)) {
                kept++;
            } else {
                count++;
            }
        }
        used = count + kept;
        LIVE.setRelease(this, count);
        table = t;
        return t;
    }
}
