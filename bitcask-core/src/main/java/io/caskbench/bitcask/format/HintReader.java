package io.caskbench.bitcask.format;

import java.util.zip.CRC32C;

/**
 * Threading: one thread.
 *
 * <p>Reads a hint file front to back through a window of a fixed size, so that open never copies a
 * whole hint file into the heap. At 10M keys the hint files hold about 350 MB: as heap arrays they
 * cost a fresh page of memory per 4 KiB and a second copy, more than the rest of reading them. A
 * window holds at least one whole entry (the largest key is 65,535 bytes), and moves only forward.
 *
 * <p>When asked, it also keeps the CRC32C of every byte it loads that the footer's check covers
 * (all but the last four bytes of the file), so one pass both checks a file and walks its entries.
 * A reader over an array loads nothing: the array is the window.
 */
public final class HintReader {

    /** Window size of a reader over a file: two of the largest entries. */
    public static final int WINDOW_BYTES = 2 * (HintFormat.ENTRY_SIZE + 0xFFFF) + HintFormat.FOOTER_SIZE;

    /** Where a hint file's bytes come from: a positional read of exactly {@code len} bytes. */
    @FunctionalInterface
    public interface Source {
        /** Copies {@code len} bytes of the file starting at {@code position} into {@code dst[off, off + len)}. */
        void read(long position, byte[] dst, int off, int len);
    }

    /** Null for a reader over an array. Final. */
    private final Source source;
    /** Length of the file. Final. */
    private final long size;
    /** Null unless the reader keeps a CRC. Final. */
    private final CRC32C crc;
    /** The loaded bytes; the whole file for a reader over an array. Final. */
    private final byte[] window;
    /** File position of {@code window[0]}. */
    private long windowStart;
    /** Bytes of {@code window} loaded. */
    private int loaded;

    /** A reader over the whole file in {@code hint}; with {@code checksum}, its CRC is taken at once. */
    public HintReader(byte[] hint, boolean checksum) {
        this.source = null;
        this.size = hint.length;
        this.window = hint;
        this.loaded = hint.length;
        this.crc = checksum ? new CRC32C() : null;
        if (crc != null) {
            crc.update(hint, 0, (int) Math.max(0, size - Integer.BYTES));
        }
    }

    /** A reader over a file of {@code size} bytes read from {@code source}, keeping its CRC with {@code checksum}. */
    public HintReader(Source source, long size, boolean checksum) {
        this(source, size, checksum, WINDOW_BYTES);
    }

    /**
     * The same with a window of {@code windowBytes}: tests use small ones, to move it often. A window
     * smaller than {@link #WINDOW_BYTES} cannot load the largest entries.
     */
    HintReader(Source source, long size, boolean checksum, int windowBytes) {
        this.source = source;
        this.size = size;
        this.window = new byte[(int) Math.min(windowBytes, size)];
        this.crc = checksum ? new CRC32C() : null;
    }

    /** Length of the file. */
    public long size() {
        return size;
    }

    /** The array that {@link #load} returns indexes into; valid until the next {@code load}. */
    public byte[] window() {
        return window;
    }

    /**
     * Makes the file's bytes {@code [position, position + len)} readable in {@link #window()} and returns
     * where in it they start. Positions may only grow: bytes before the last load's start may be gone.
     *
     * @throws IllegalArgumentException when the range is outside the file or behind the window
     */
    public int load(long position, int len) {
        if (position < windowStart || len < 0 || position + len > size || len > window.length) {
            throw new IllegalArgumentException("bytes [" + position + ", " + (position + len) + ") of a hint file of "
                    + size + " bytes, window at " + windowStart);
        }
        if (position + len > windowStart + loaded) {
            slide(position, position + len);
        }
        return (int) (position - windowStart);
    }

    /**
     * Moves the window forward until it holds {@code [position, end)}. Bytes are read in file order and
     * none is skipped, so the CRC sees every one of them.
     */
    private void slide(long position, long end) {
        while (windowStart + loaded < end) {
            long start = Math.min(position, windowStart + loaded);
            int keep = (int) (windowStart + loaded - start);
            System.arraycopy(window, loaded - keep, window, 0, keep);
            windowStart = start;
            loaded = keep;
            int more = (int) Math.min(window.length - keep, size - (start + keep));
            source.read(start + keep, window, keep, more);
            checksum(start + keep, keep, more);
            loaded = keep + more;
        }
    }

    /** Adds the bytes just loaded at file position {@code from}, window index {@code at}, to the CRC. */
    private void checksum(long from, int at, int len) {
        long covered = Math.max(0, size - Integer.BYTES);
        if (crc != null && from < covered) {
            crc.update(window, at, (int) Math.min(len, covered - from));
        }
    }

    /**
     * True when the CRC32C of every byte but the last four, loading whatever has not been loaded,
     * equals the last four bytes, where a hint file's footer keeps it; for a reader that keeps a CRC.
     */
    public boolean crcMatches() {
        int computed = crc();
        return RecordFormat.getInt(window, load(size - Integer.BYTES, Integer.BYTES)) == computed;
    }

    /**
     * The CRC32C of every byte of the file but the last four, loading whatever has not been loaded;
     * for a reader that keeps one.
     */
    public int crc() {
        if (crc == null) {
            throw new IllegalStateException("this reader keeps no CRC");
        }
        if (windowStart + loaded < size) {
            slide(Math.max(windowStart, size - window.length), size);
        }
        return (int) crc.getValue();
    }
}
