package io.caskbench.bitcask.segment;

/**
 * Threading: static helpers on values, safe everywhere.
 *
 * <p>Where a record lies in its segment and how long it is, packed into one {@code long}: the
 * offset in bits 31-61, the length in bits 0-30. A segment, merge outputs included, holds at most
 * {@code Integer.MAX_VALUE} bytes, so both fit; and places sort as their offsets do, so an array
 * of them is put in file order by {@link java.util.Arrays#sort(long[])}.
 */
public final class RecordPlace {

    private static final int LENGTH_BITS = 31;
    private static final long LENGTH_MASK = (1L << LENGTH_BITS) - 1;

    private RecordPlace() {
    }

    /** The place of the record of {@code length} bytes at {@code offset}. */
    public static long of(long offset, int length) {
        if (offset < 0 || offset > Integer.MAX_VALUE || length < 0) {
            throw new IllegalArgumentException("no record of " + length + " bytes lies at offset " + offset + " of a segment");
        }
        return offset << LENGTH_BITS | length;
    }

    /** Offset of the record in its segment. */
    public static long offset(long place) {
        return place >>> LENGTH_BITS;
    }

    /** Length of the record. */
    public static int length(long place) {
        return (int) (place & LENGTH_MASK);
    }
}
