package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.io.StoreDirectory;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Threading: any thread reads the slots without a lock; every change is made under {@code lock}.
 *
 * <p>The store's segments: by slot, the number a key directory location names a segment by, and
 * by id, the order replay and merge go in. A slot is reserved from the moment a segment is being
 * made for it until the segment is registered, and again while a retired segment is being
 * closed, so that no new segment answers to a stale location.
 */
public final class SegmentTable {

    /** The salt no file is given: a header without one was not written by this store. */
    public static final long NO_SALT = 0;
    /** Salts of new files: random, so that no two files bind their records alike. */
    private static final RandomGenerator SALTS = new SecureRandom();

    /** Final, safe everywhere. */
    private final StoreDirectory dir;
    /** Final, safe everywhere. */
    private final long segmentSize;
    /** Guards every change below; never held across I/O but a slot search. */
    private final Object lock = new Object();
    /** Segments by slot; any thread reads it without a lock; replaced whole under {@code lock}. */
    private volatile Segment[] slots = new Segment[16];
    /** Segments by id, oldest first; under {@code lock}. */
    private final TreeMap<Long, Segment> byId = new TreeMap<>();
    /** Slots taken by a segment not (or no longer) in {@code slots}; under {@code lock}. */
    private final Set<Integer> reserved = new HashSet<>();
    /**
     * Odd while a merge swaps its outputs in and its inputs out: the segments' sums are in flux then. Raised
     * by the merging thread only, under the write lock (one writer, so a volatile store suffices); any thread reads.
     */
    private volatile long swaps;

    /** An empty table for segments of {@code segmentSize} bytes in {@code dir}. */
    public SegmentTable(StoreDirectory dir, long segmentSize) {
        this.dir = dir;
        this.segmentSize = segmentSize;
    }

    /** The segment in {@code slot}, or null; no lock. */
    public Segment at(int slot) {
        Segment[] s = slots;
        return slot < s.length ? s[slot] : null;
    }

    /** The segment a location points into, or null; no lock. */
    public Segment of(long location) {
        return at(Location.slot(location));
    }

    /** The registered segments, oldest first: a copy. */
    public List<Segment> inOrder() {
        synchronized (lock) {
            return new ArrayList<>(byId.values());
        }
    }

    /**
     * What {@code read} makes of the registered segments, oldest first, read outside any merge's swap: during
     * one, the list may hold both the outputs and the inputs they replace, and the live bytes move from one to
     * the other key by key, so sums over it would count a merge's data twice or its live bytes not at all.
     * Reads again when a swap began meanwhile. For figures (stats, the debt daemon), not for writers.
     */
    public <T> T stable(Function<List<Segment>, T> read) {
        for (int spins = 0; ; spins++) {
            long before = swaps;
            if ((before & 1) == 0) {
                T result = read.apply(inOrder());
                if (swaps == before) {
                    return result;
                }
            } else if (spins < 64) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(100_000); // a swap lasts as long as its relocations: let it have the core
            }
        }
    }

    /** A merge begins to swap its outputs in; the merging thread, under the write lock. */
    public void beginSwap() {
        swaps = swaps + 1;
    }

    /** The merge's swap is over; the merging thread, under the write lock. */
    public void endSwap() {
        swaps = swaps + 1;
    }

    /** A free slot, reserved until {@link #register} or {@link #release}. */
    public int allocateSlot() {
        synchronized (lock) {
            Segment[] s = slots;
            for (int i = 0; i < s.length; i++) {
                if (s[i] == null && !reserved.contains(i)) {
                    reserved.add(i);
                    return i;
                }
            }
            if (s.length > Location.MAX_SEGMENT_SLOT) {
                throw new BitCaskException("too many segments in " + dir + "; use a larger segmentSize");
            }
            int slot = s.length;
            slots = Arrays.copyOf(s, s.length * 2);
            reserved.add(slot);
            return slot;
        }
    }

    /** Makes {@code seg} reachable in its reserved slot and known by its id. */
    public void register(Segment seg) {
        synchronized (lock) {
            Segment[] s = slots.clone();
            s[seg.slot()] = seg;
            slots = s;
            reserved.remove(seg.slot());
            byId.put(seg.id(), seg);
        }
    }

    /**
     * Puts {@code fresh} where {@code old} was, in the same slot: the same file, reopened. It takes
     * over the tombstones noted for {@code old}.
     */
    public void replace(Segment old, Segment fresh) {
        fresh.tombstones().addAll(old.tombstones());
        synchronized (lock) {
            Segment[] s = slots.clone();
            s[old.slot()] = fresh;
            slots = s;
            byId.put(fresh.id(), fresh);
        }
    }

    /** Frees a slot reserved for a segment that will not be registered, or that was retired and closed. */
    public void release(int slot) {
        synchronized (lock) {
            reserved.remove(slot);
        }
    }

    /** Forgets the ids of merged segments; they stay reachable by slot until {@link #unreachable}. */
    public void forget(Collection<Segment> segments) {
        synchronized (lock) {
            for (Segment seg : segments) {
                byId.remove(seg.id());
            }
        }
    }

    /** Takes segments out of their slots, which stay reserved until {@link #release}. */
    public void unreachable(Collection<Segment> segments) {
        synchronized (lock) {
            Segment[] s = slots.clone();
            for (Segment seg : segments) {
                s[seg.slot()] = null;
                reserved.add(seg.slot());
            }
            slots = s;
        }
    }

    /** Creates, heads and registers a new, empty segment; on failure nothing is left behind but a file recovery skips. */
    public Segment create(long id) {
        Path file = SegmentFiles.dataFile(dir.path(), id);
        long salt = newSalt();
        SegmentWriter w = dir.backend().openWritable(file, segmentSize);
        int slot;
        try {
            byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
            RecordFormat.encodeFileHeader(header, id, salt);
            w.write(0, header, 0, header.length);
            slot = allocateSlot();
        } catch (RuntimeException e) {
            w.close();
            try {
                dir.backend().delete(file);
            } catch (RuntimeException ignored) {
                // a headerless file is skipped by recovery, and reused or replaced by the next open
            }
            throw e;
        }
        Segment seg = new Segment(id, salt, slot, file, w, w, RecordFormat.FILE_HEADER_SIZE);
        register(seg);
        return seg;
    }

    /** A salt for a new file: random, never {@link #NO_SALT}. */
    public static long newSalt() {
        long salt;
        do {
            salt = SALTS.nextLong();
        } while (salt == NO_SALT);
        return salt;
    }
}
