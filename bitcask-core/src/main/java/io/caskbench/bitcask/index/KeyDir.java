package io.caskbench.bitcask.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;
import java.util.function.LongPredicate;

/**
 * Threading: one exclusive writer at a time, under the log writer's lock once no put is still publishing
 * ({@link #put}, {@link #delete}, {@link #relocate}, rebuilds); or, between exclusive writes, any number of
 * putting threads through {@link #publish}; any number of readers without a lock (see below).
 *
 * <p>The key directory: an open-addressing hash table from key to the location of its newest record.
 *
 * <p>Keys are not kept in memory. A slot holds the key's 32-bit hash, the record length and the
 * record location (segment slot and offset) in two {@code long}s, 16 bytes in all; the key itself
 * is checked against the record on disk whenever a hash matches. A slot, once taken by a key,
 * belongs to that key until the table is rebuilt, so a reader that matches a slot's hash and
 * verifies the key can trust that slot.
 *
 * <p>The exclusive writer (the caller holds the log writer's lock, and no put is publishing)
 * changes slots of the {@link SlotTable} by its stores and marks; any number of readers probe it
 * without locks. Growth builds a new table and publishes it in one volatile write; a table is
 * sized by the live keys, so deletes and merges let it shrink again.
 *
 * <p>{@link #publish} is the put path that needs no lock. An empty slot is claimed by a
 * compare-and-set of its meta word, and its location published after, so a reader still takes the
 * slot for empty until then and never waits on an insert; a taken slot is claimed by a
 * compare-and-set of its location word from the exact location read to {@link #BUSY}. An update only
 * ever moves a key toward a record later in the log, so the newest record wins whatever the order in
 * which concurrent puts publish. Rebuilds and exclusive writes wait until no publication is under
 * way (the log writer counts them), so a publication always meets the current table.
 */
public final class KeyDir {

    /** Location of a slot whose update is under way; never a real location (bit 63 is never set). */
    public static final long BUSY = Long.MIN_VALUE;
    /** Most slots a table can have: two longs a slot must fit in one array. */
    public static final int MAX_CAPACITY = 1 << 29;
    /** Most keys one key directory holds. */
    public static final long MAX_KEYS = SlotTable.maxKeys(MAX_CAPACITY);

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
    private volatile SlotTable table;
    /** Taken slots, deleted keys included, less {@code inserted}; the exclusive writer. */
    private long used;
    /**
     * Live keys, less {@code inserted} and {@code revived}; the exclusive writer, with release stores
     * (a fence per put would cost more than the put).
     */
    private long live;
    /** Slots taken by {@link #publish}; publishing threads add (a rebuild folds it into {@code used}, never resets it). Striped: two cores publish at once. */
    private final LongAdder inserted = new LongAdder();
    /** Deleted keys that {@link #publish} made live again; publishing threads add (a rebuild folds it into {@code live}). */
    private final LongAdder revived = new LongAdder();
    /** Rebuilds so far; the exclusive writer. */
    private int rebuilds;
    /** Deleted entries a rebuild keeps; writer thread, under the log writer's lock. */
    private LongPredicate keepDeleted = loc -> false;

    /** The log's order of two record locations. */
    @FunctionalInterface
    public interface LogOrder {
        /** True when the record at {@code a} lies later in the log than the record at {@code b} (both without flags). */
        boolean later(long a, long b);
    }

    /** Told by {@link #put}, {@link #delete} and {@link #publish} about the live record a change replaced. */
    @FunctionalInterface
    public interface Replaced {
        /** The record at {@code location} (without flags), {@code length} bytes long, is no longer current. */
        void replaced(long location, int length);
    }

    /** Receives the live entries {@link #forEachLive} finds. */
    @FunctionalInterface
    public interface LiveEntry {
        /** The key of {@code hash} points at its record of {@code length} bytes at {@code location}. */
        void entry(int hash, long location, int length);
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

    /** A directory sized for {@code expectedKeys} without growing. */
    public KeyDir(long expectedKeys) {
        this(expectedKeys, MAX_CAPACITY);
    }

    /** A directory sized for {@code expectedKeys} that never grows past {@code maxCapacity} slots. */
    KeyDir(long expectedKeys, int maxCapacity) {
        this.maxCapacity = maxCapacity;
        this.minCapacity = SlotTable.capacityFor(expectedKeys, maxCapacity);
        this.table = new SlotTable(minCapacity);
    }

    /** The current table, for lock-free probing. */
    public SlotTable table() {
        return table;
    }

    /**
     * Live keys; any thread. An estimate while writes go on: the exclusive writer's count and the
     * publishing puts' counts are read one after the other, so a reader descheduled between them
     * can mix two moments.
     */
    public long size() {
        return (long) LIVE.getAcquire(this) + inserted.sum() + revived.sum();
    }

    /** Taken slots, deleted keys included. */
    private long usedSlots() {
        return used + inserted.sum();
    }

    /** Slots of the current table. */
    public int capacity() {
        return table.capacity();
    }

    /**
     * Reads ahead the slots where keys of hashes {@code firstHash} to {@code lastHash} begin their
     * probes (see {@link SlotTable#warm}); open calls it before it adds that band's keys. Writer only.
     */
    public long warm(int firstHash, int lastHash) {
        return table.warm(firstHash, lastHash);
    }

    /**
     * Grows the table now so that {@code keys} keys fit without growing again; open calls it with
     * the entry counts of the hint files. Writer only.
     */
    public void reserve(long keys) {
        int capacity = SlotTable.capacityFor(keys, maxCapacity);
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
        if (usedSlots() + keys <= SlotTable.maxKeys(table.capacity())) {
            return true;
        }
        rebuild(growthCapacity(keys), slot -> false, keepDeleted);
        return usedSlots() + keys <= SlotTable.maxKeys(table.capacity());
    }

    /**
     * Slots that may still be taken before the table must be rebuilt. The log writer counts the
     * puts still publishing against it, as each of them may take one. The writer thread, under the
     * log writer's lock.
     */
    public long freeSlots() {
        return SlotTable.maxKeys(table.capacity()) - usedSlots();
    }

    /** Rebuilds so far: a count of free slots taken before the last one no longer holds. The exclusive writer. */
    public int rebuilds() {
        return rebuilds;
    }

    /** Heap bytes held by the table. */
    public long heapBytes() {
        return (long) table.capacity() * 16 + 32;
    }

    /**
     * Points {@code key} at a new record, and tells {@code replaced} about the live record it
     * replaces, if any. Writer only.
     *
     * @return the previous location, 0 when the key was absent (it may carry {@link Location#DELETED})
     */
    public long put(int hash, byte[] key, int keyOff, int keyLength, long location, int length, KeyCheck check,
                    Replaced replaced) {
        SlotTable t = table;
        int i = t.find(hash, key, keyOff, keyLength, check);
        if (i < 0) {
            if (usedSlots() + 1 > SlotTable.maxKeys(t.capacity())) {
                if (!makeRoom(1)) {
                    throw new IllegalStateException("key directory is full at " + size() + " keys");
                }
                t = table;
                i = t.emptySlot(hash);
            } else {
                i = -i - 1; // find stopped at this empty slot
            }
            used++;
            t.insert(i, ((long) hash << 32) | (length & 0xFFFFFFFFL), location);
            LIVE.setRelease(this, live + 1);
            return 0;
        }
        long previous = t.loc(i);
        int previousLength = (int) t.meta(i);
        t.beginUpdate(i, ((long) hash << 32) | (length & 0xFFFFFFFFL));
        t.publish(i, location);
        if (Location.isDeleted(previous)) {
            LIVE.setRelease(this, live + 1);
        } else {
            replaced.replaced(previous, previousLength);
        }
        return previous;
    }

    /**
     * Points {@code key} at a new put record (never a tombstone) unless a record later in the log already holds it; safe
     * against other publishing threads and lock-free readers, never against an exclusive writer or a
     * rebuild (the log writer keeps those apart). There must be room for one more key: the caller
     * counted it against {@link #freeSlots} before it wrote the record.
     *
     * <p>A slot's location is read with its meta word between two reads of the location: when both
     * reads agree, the pair is one a single update wrote, so the key check reads a whole record. The
     * slot is then claimed by a compare-and-set from exactly that location, so a publication that
     * raced in between is seen and the slot looked at again.
     *
     * @return the location replaced (0 for a new slot, possibly with {@link Location#DELETED}), or
     *         {@link #BUSY} when a later record holds the key, so this one is dead from the start
     */
    public long publish(int hash, byte[] key, int keyOff, int keyLength, long location, int length,
                        KeyCheck check, LogOrder order, Replaced replaced) {
        SlotTable t = table;
        long meta = ((long) hash << 32) | (length & 0xFFFFFFFFL);
        int i = t.first(hash);
        while (true) {
            long loc = t.location(i);
            if (loc == 0) {
                if (t.claimEmpty(i, meta)) {
                    t.publish(i, location);
                    inserted.increment();
                    return 0;
                }
                for (int spins = 0; t.inserting(i); spins++) {
                    SpinWait.pause(spins); // another put is inserting here, perhaps this key: wait to see it
                }
                continue;
            }
            if (t.hash(i) != hash || loc == Location.DELETED) {
                i = t.next(i);
                continue;
            }
            int len = t.length(i);
            if (t.locationNow(i) != loc) {
                continue; // the pair may be torn
            }
            if (!check.sameKey(Location.record(loc), len, key, keyOff, keyLength)) {
                i = t.next(i); // a slot keeps its key until a rebuild
                continue;
            }
            if (!order.later(location, Location.record(loc))) {
                return BUSY;
            }
            if (!t.claim(i, loc)) {
                continue;
            }
            t.storeMeta(i, meta);
            t.publish(i, location);
            if (Location.isDeleted(loc)) {
                revived.increment();
            } else {
                replaced.replaced(loc, len);
            }
            return loc;
        }
    }

    /**
     * Marks {@code key} deleted, pointing at its tombstone, and tells {@code replaced} about the
     * live record it replaces, if any. Writer only.
     *
     * @return the previous location, 0 when the key had no slot (nothing is changed then)
     */
    public long delete(int hash, byte[] key, int keyOff, int keyLength, long tombstone, int length, KeyCheck check,
                       Replaced replaced) {
        SlotTable t = table;
        int i = t.find(hash, key, keyOff, keyLength, check);
        if (i < 0) {
            return 0;
        }
        long previous = t.loc(i);
        int previousLength = (int) t.meta(i);
        t.beginUpdate(i, ((long) hash << 32) | (length & 0xFFFFFFFFL));
        t.publish(i, tombstone | Location.DELETED);
        if (!Location.isDeleted(previous)) {
            LIVE.setRelease(this, live - 1);
            replaced.replaced(previous, previousLength);
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
        SlotTable t = table;
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
        SlotTable t = table;
        int i = t.find(hash, key, keyOff, keyLength, check);
        return i < 0 ? 0 : t.loc(i);
    }

    /** True when the slot for {@code hash} points exactly at {@code location}; any thread, no lock. */
    public boolean pointsAt(int hash, long location) {
        return table.slotHolding(hash, location) >= 0;
    }

    /**
     * Hands {@code visitor} every live entry (not a tombstone) whose segment slot {@code segmentSlots}
     * accepts: one pass over the current table, 16 bytes a slot, whatever it hands over. Any thread, no
     * lock ({@link SlotTable#forEachLive}); a table replaced meanwhile is read to its end as it was.
     */
    public void forEachLive(IntPredicate segmentSlots, LiveEntry visitor) {
        table.forEachLive(segmentSlots, visitor);
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
        return growthCapacity(size() + more);
    }

    /** Capacity for a rebuild that must hold {@code entries}, with room to spare; within the bounds. */
    private int growthCapacity(long entries) {
        long want = Math.max(SlotTable.MIN_CAPACITY, (long) Math.ceil(2 * entries / SlotTable.MAX_LOAD));
        int capacity = want >= maxCapacity ? maxCapacity : Integer.highestOneBit((int) want - 1) << 1;
        return Math.max(minCapacity, capacity);
    }

    private SlotTable rebuild(int capacity, IntPredicate dropSegment, LongPredicate keep) {
        SlotTable old = table;
        // An entry survives when it is in a kept segment, and live or a tombstone kept.
        LongPredicate survives = loc -> !dropSegment.test(Location.slot(loc)) && (!Location.isDeleted(loc) || keep.test(loc));
        // The live keys alone do not size it: under ALWAYS it also keeps the tombstones not yet forced.
        long entries = old.count(survives);
        SlotTable t = new SlotTable(Math.max(capacity, growthCapacity(entries + 1)));
        // Counted as copied: a tombstone forced since the count above is not copied.
        SlotTable.Copied copied = old.copyInto(t, survives);
        long count = copied.live();
        long kept = copied.deleted();
        // The counts publishing puts keep are not reset, so a rebuild does not move size(): it
        // changes no key, and must not look as if it did.
        used = count + kept - inserted.sum();
        LIVE.setRelease(this, count - inserted.sum() - revived.sum());
        rebuilds++;
        table = t;
        return t;
    }
}
