package io.caskbench.bitcask.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntPredicate;
import java.util.function.LongPredicate;

/**
 * Threading: any thread reads its slots without a lock (acquire loads); the key directory's exclusive
 * writer stores with release; publishing puts claim a slot by compare-and-set, then store with
 * release. The protocol of those stores is {@link KeyDir}'s.
 *
 * <p>The key directory's slot table: an open-addressing table of a fixed number of slots, each
 * the key's hash and record length (the meta word) and the record's {@link Location}. Slot
 * {@code i} is {@code entries[2i]} (meta) and {@code entries[2i + 1]} (location): both halves of a
 * slot share a cache line, so a probe costs one miss, not two. A table never changes size: the
 * key directory builds a new one and publishes it whole.
 *
 * <p>The stores of an exclusive writer: an insert into an empty slot stores the meta word and then
 * publishes the location with a release store. An update of a taken slot first marks its location
 * {@link KeyDir#BUSY}, then stores the new meta word and the new location, each with a release
 * store. A reader loads the location and then the meta word with acquire loads; when the pair it
 * read fails to describe the record on disk, it asks {@link #unchanged}, which sees the mark or the
 * new location of any update that could have torn the pair, so a lost race is retried rather than
 * reported as corruption.
 */
public final class SlotTable {

    /** Fewest slots a table has. */
    static final int MIN_CAPACITY = 1 << 10;
    /** Largest share of slots taken before the table must be rebuilt. */
    static final double MAX_LOAD = 0.75;
    private static final VarHandle LOCS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs in a cache line of 64 bytes: {@link #warm} loads one of each. */
    private static final int LONGS_PER_LINE = 8;

    /**
     * Slots, two longs each; any thread reads with acquire loads; the exclusive writer stores with
     * release, publishing threads claim by compare-and-set and then store with release.
     */
    final long[] entries;
    /** Final. */
    final int mask;
    /** Final. */
    final int shift;

    /** Smallest power-of-two capacity that holds {@code keys} within the load factor, up to {@code maxCapacity}. */
    static int capacityFor(long keys, int maxCapacity) {
        long want = Math.max(MIN_CAPACITY, (long) Math.ceil(keys / MAX_LOAD) + 1);
        if (want > maxCapacity) {
            throw new IllegalArgumentException("a key directory holds at most " + maxKeys(maxCapacity) + " keys: " + keys);
        }
        return Integer.highestOneBit((int) want - 1) << 1;
    }

    /** Most keys a table of {@code capacity} slots holds within the load factor. */
    static long maxKeys(int capacity) {
        return (long) (capacity * MAX_LOAD);
    }

    /** An empty table of {@code capacity} slots, a power of two. */
    SlotTable(int capacity) {
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
        LOCS.setOpaque(entries, 2 * i + 1, KeyDir.BUSY);
        LOCS.setRelease(entries, 2 * i, meta);
    }

    /** Claims slot {@code i} for an update if its location is still {@code expected}; any publishing thread. */
    boolean claim(int i, long expected) {
        return LOCS.compareAndSet(entries, 2 * i + 1, expected, KeyDir.BUSY);
    }

    /**
     * Claims empty slot {@code i} for a new key by storing its meta word, unless another thread
     * claimed it first; the location stays empty until {@link #publish}. Any publishing thread.
     */
    boolean claimEmpty(int i, long meta) {
        return LOCS.compareAndSet(entries, 2 * i, 0L, meta);
    }

    /** True while slot {@code i} is claimed for a new key whose location is not yet published. */
    boolean inserting(int i) {
        return (long) LOCS.getAcquire(entries, 2 * i) != 0 && (long) LOCS.getAcquire(entries, 2 * i + 1) == 0;
    }

    /**
     * Second half of an update or of a publishing insert: publishes the new location. The
     * exclusive writer, or the publishing thread that claimed the slot.
     */
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
        for (int spins = 0; loc == KeyDir.BUSY; spins++) {
            SpinWait.pause(spins);
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
    int find(int hash, byte[] key, int keyOff, int keyLength, KeyDir.KeyCheck check) {
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

    /** Location of slot {@code i} as it is now (acquire), {@link KeyDir#BUSY} included; never waits. */
    long locationNow(int i) {
        return (long) LOCS.getAcquire(entries, 2 * i + 1);
    }

    /** Stores slot {@code i}'s meta word with release: the publishing thread that claimed the slot. */
    void storeMeta(int i, long meta) {
        LOCS.setRelease(entries, 2 * i, meta);
    }

    /** The first empty slot on {@code hash}'s probe. Writer only (plain loads). */
    int emptySlot(int hash) {
        int i = first(hash);
        while (loc(i) != 0) {
            i = next(i);
        }
        return i;
    }

    /** Taken slots whose location {@code keep} accepts. Writer only. */
    long count(LongPredicate keep) {
        long n = 0;
        for (int j = 0; j < capacity(); j++) {
            long loc = loc(j);
            if (loc != 0 && keep.test(loc)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Hands {@code visitor} every entry whose location is a live record (not deleted) in a segment
     * slot that {@code segmentSlots} accepts, with its hash and record length, slot by slot front to
     * back. Any thread, no lock: the location is read, then the meta word, then the location again,
     * and a pair that changed in between is read anew, so every pair handed over is one a single
     * update wrote. An entry that changes during the pass is handed over as it was before or after.
     */
    void forEachLive(IntPredicate segmentSlots, KeyDir.LiveEntry visitor) {
        for (int i = 0; i < capacity(); i++) {
            long seen = entries[2 * i + 1]; // plain: only a filter; what is handed over is read again below
            if (seen != KeyDir.BUSY && (seen == 0 || Location.isDeleted(seen) || !segmentSlots.test(Location.slot(seen)))) {
                continue;
            }
            for (long loc = location(i);
                 loc != 0 && !Location.isDeleted(loc) && segmentSlots.test(Location.slot(loc)); ) {
                long meta = (long) LOCS.getAcquire(entries, 2 * i);
                long again = location(i);
                if (again == loc) {
                    visitor.entry((int) (meta >>> 32), loc, (int) meta);
                    break;
                }
                loc = again;
            }
        }
    }

    /** What {@link #copyInto} copied: live entries and deleted ones. */
    record Copied(long live, long deleted) {
    }

    /**
     * Copies every taken slot whose location {@code keep} accepts into {@code to}, a table no other
     * thread sees yet, and counts what it copied: {@code keep} may answer otherwise than it did to
     * {@link #count} (a tombstone forced meanwhile), so only these counts are exact. Writer only.
     */
    Copied copyInto(SlotTable to, LongPredicate keep) {
        long live = 0;
        long deleted = 0;
        for (int j = 0; j < capacity(); j++) {
            long loc = loc(j);
            if (loc == 0 || !keep.test(loc)) {
                continue;
            }
            int i = to.emptySlot((int) (meta(j) >>> 32));
            to.entries[2 * i] = meta(j);
            to.entries[2 * i + 1] = loc;
            if (Location.isDeleted(loc)) {
                deleted++;
            } else {
                live++;
            }
        }
        return new Copied(live, deleted);
    }

    /**
     * Reads the slots where keys of hashes {@code firstHash} to {@code lastHash} (signed, in the
     * same half of the hash space) begin their probes, front to back, one load per cache line, and
     * returns a sum of what it read only so that the loads are kept. Open calls it before it adds
     * the keys of that band of hashes: inserted in hash order the keys touch the band's slots with
     * gaps, each a miss to memory, while a read front to back is streamed in by the hardware
     * prefetcher. Writer only.
     */
    long warm(int firstHash, int lastHash) {
        long sum = 0;
        int end = 2 * first(lastHash) + 1;
        for (int i = 2 * first(firstHash); i <= end; i += LONGS_PER_LINE) {
            sum += entries[i];
        }
        return sum;
    }
}
