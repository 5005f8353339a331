package io.caskbench.bitcask.index;

/**
 * Threading: static helpers on values, safe everywhere.
 *
 * <p>Where a record lies, packed into one {@code long} so that a key directory slot can publish it in
 * one store: bits 0-39 the offset in its segment, bits 40-61 the segment's slot, bit 62
 * {@link #DELETED}. Bit 63 is never set, which leaves it to {@link KeyDir#BUSY}.
 *
 * <p>Threading: static helpers on values, safe everywhere.
 */
public final class Location {

    /** Flag: the key's newest record is a tombstone at the rest of the location. */
    public static final long DELETED = 1L << 62;
    /** Largest segment slot a location can hold. */
    public static final int MAX_SEGMENT_SLOT = (1 << 22) - 1;
    private static final int OFFSET_BITS = 40;
    private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;

    private Location() {
    }

    /** The location of the record at {@code offset} of the segment in {@code segmentSlot}. */
    public static long of(int segmentSlot, long offset) {
        return ((long) segmentSlot << OFFSET_BITS) | offset;
    }

    /** Segment slot of a location. */
    public static int slot(long location) {
        return (int) ((location & ~DELETED) >>> OFFSET_BITS);
    }

    /** Offset of a location in its segment. */
    public static long offset(long location) {
        return location & OFFSET_MASK;
    }

    /** True when the location marks a deleted key. */
    public static boolean isDeleted(long location) {
        return (location & DELETED) != 0;
    }

    /** The location without its {@link #DELETED} flag. */
    public static long record(long location) {
        return location & ~DELETED;
    }
}
