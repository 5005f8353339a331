package io.caskbench.bitcask.segment;

import java.util.Arrays;

/**
 * Threading: appended to by the log writer under its lock, by recovery's opening thread, or by a
 * merge for an output it has not registered yet; read by a merge once it sealed the segment, which
 * the log writer's lock orders after every append. Never two threads at once.
 *
 * <p>Where a segment's tombstones lie ({@link RecordPlace}s): what a partial merge must look at
 * among records the key directory no longer points at, since a tombstone may have to stay (see
 * {@code merge/ShadowingTombstones}). Kept in memory, 8 bytes a tombstone, so that a merge finds
 * them without reading the segment: the key directory keeps a deleted key only until its next
 * rebuild, and a key deleted in several segments has a tombstone in each.
 */
public final class SegmentTombstones {

    private static final long[] NONE = new long[0];

    /** Places noted, in the order noted; see the class comment for the threads. */
    private long[] places = NONE;
    /** Places used in {@code places}. */
    private int count;

    /** Notes the tombstone of {@code length} bytes at {@code offset}. */
    public void add(long offset, int length) {
        if (count == places.length) {
            places = Arrays.copyOf(places, Math.max(8, count * 2));
        }
        places[count++] = RecordPlace.of(offset, length);
    }

    /** Notes every tombstone {@code other} noted: the same file under another {@link Segment}. */
    public void addAll(SegmentTombstones other) {
        for (int i = 0; i < other.count; i++) {
            add(RecordPlace.offset(other.places[i]), RecordPlace.length(other.places[i]));
        }
    }

    /** Tombstones noted. */
    public int size() {
        return count;
    }

    /**
     * The places noted, in file order and each once: recovery notes the tombstones of a hinted
     * segment in its hint's order, by key hash.
     */
    public long[] inFileOrder() {
        long[] sorted = Arrays.copyOf(places, count);
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (n == 0 || sorted[i] != sorted[n - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
    }
}
