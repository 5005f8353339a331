package io.caskbench.shm;

import java.util.Locale;

/** Parses and prints the region sizes used as JMH parameters ("64KiB", "64MiB", "1GiB"). */
public final class RegionSize {

    private RegionSize() {
    }

    /**
     * Parses a size such as {@code 64KiB}, {@code 1GiB} or a plain byte count.
     *
     * @throws IllegalArgumentException if the text is not a size or not a power of two: the benchmarks
     *     turn random numbers into positions with a mask, which needs a power of two
     */
    public static int parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("KIB")) {
            unit = 1L << 10;
        } else if (t.endsWith("MIB")) {
            unit = 1L << 20;
        } else if (t.endsWith("GIB")) {
            unit = 1L << 30;
        }
        String digits = unit == 1 ? t : t.substring(0, t.length() - 3);
        long bytes = Long.parseLong(digits) * unit;
        if (bytes <= 0 || bytes > (1L << 30) || Long.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("region size must be a power of two up to 1GiB: " + text);
        }
        return (int) bytes;
    }

    /** The inverse of {@link #parse}: the largest whole binary unit. */
    public static String format(long bytes) {
        if (bytes >= (1L << 30) && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GiB";
        }
        if (bytes >= (1L << 20) && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MiB";
        }
        if (bytes >= (1L << 10) && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KiB";
        }
        return Long.toString(bytes);
    }
}
