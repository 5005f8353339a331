package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskCorruptionException;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.HintReader;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.segment.Segment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Threading: the opening thread only.
 *
 * <p>Loads the hint files of consecutive segments into the key directory in one pass over the
 * directory, instead of one pass per file. Each hint file is sorted by hash, so loading one fills
 * the directory front to back; but with many files, each pass touches one slot in every few
 * hundred bytes of a table that no cache holds, a cache and TLB miss per key. The sweep instead
 * splits the hash space into {@link #BANDS} bands and, band by band, lets every file add its
 * entries of that band: the band's part of the directory stays in the caches while the files take
 * their turns, and no per-entry merge of the files is needed. Before a band, its part of the
 * directory is read front to back ({@link KeyDirWriter#warm}): the hardware prefetcher streams
 * that in, where the inserts alone, which leave gaps, would each wait for memory.
 *
 * <p>Each file is read through a {@link HintReader} window of its own, front to back, so the sweep
 * holds a window per file, not the files: at 10M keys the hint files hold about 350 MB.
 *
 * <p>Order per key is what replay needs. A key's entries all have its hash, so they fall in one
 * band, where the files take their turns oldest first, and a file's entries of equal hash are in
 * the order written: the newest record of a key is applied last, as when the files are loaded one
 * by one. The caller adds segments oldest first, and applies the sweep before it loads any later
 * segment another way. A sweep holds at most {@code maxFiles} files open: at the
 * limit it is applied and starts again.
 */
final class HintSweep implements AutoCloseable {

    /** Most hint files one sweep holds open, each with a window of {@link HintReader#WINDOW_BYTES}. */
    static final int MAX_FILES = 64;
    /**
     * Bands of the hash space applied one after another. At 10M keys a band's part of the key
     * directory is 256 KiB, which the caches and the TLB hold while every file adds its entries.
     */
    static final int BANDS = 1024;

    /**
     * Warming a band reads all its slots, a cost that grows with the directory, not with the entries
     * applied: it is done only when the pending entries are at least one per this many slots, so that
     * the lines it streams in stay few against the misses it saves. One segment's hint applied before a
     * scan, in a large directory, goes without.
     */
    static final int SLOTS_PER_ENTRY_TO_WARM = 32;

    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final. */
    private final int maxFiles;
    /** Hinted segments waiting, oldest first; opening thread. */
    private final List<Cursor> pending = new ArrayList<>();
    /** Entries of {@code pending}'s hint files; opening thread. */
    private long pendingEntries;
    /** What warming the directory read, kept only so that its loads are not dropped; opening thread. */
    private long warmed;

    /** A sweep into {@code keys} that holds at most {@code maxFiles} hint files at once. */
    HintSweep(KeyDirWriter keys, int maxFiles) {
        if (maxFiles < 1) {
            throw new IllegalArgumentException("a sweep holds at least one file: " + maxFiles);
        }
        this.keys = keys;
        this.maxFiles = maxFiles;
    }

    /**
     * Adds a segment whose hint file {@link HintFormat#validate} accepted as {@code checked}, read from
     * {@code file} of {@code size} bytes; the sweep closes the file once applied, on {@link #close}, or
     * when this call fails. Applies the sweep when it holds its most files. When the hint leaves part of
     * the data file unlisted, the caller applies the sweep before it scans that part.
     */
    void add(Segment seg, Path path, SegmentReader file, long size, HintFormat.Validation checked) {
        Cursor c;
        try {
            c = new Cursor(seg, path, file, size);
        } catch (RuntimeException | Error e) {
            close(file, e);
            throw e;
        }
        pending.add(c);
        pendingEntries += checked.entries();
        if (pending.size() >= maxFiles) {
            apply();
        }
    }

    /**
     * Applies every pending hint to the key directory, one band of hashes at a time; nothing is
     * pending after.
     *
     * @throws BitCaskCorruptionException when a hint file changed after it was checked
     */
    void apply() {
        if (pending.isEmpty()) {
            return;
        }
        Throwable failure = null;
        try {
            boolean warm = pendingEntries * SLOTS_PER_ENTRY_TO_WARM >= keys.capacity();
            for (Cursor c : pending) {
                c.advance();
            }
            long span = (1L << 32) / BANDS;
            for (int band = 0; band < BANDS; band++) {
                long first = Integer.MIN_VALUE + band * span;
                long last = band == BANDS - 1 ? Integer.MAX_VALUE : first + span - 1;
                if (warm) {
                    warmed += keys.warm((int) first, (int) last);
                }
                for (Cursor c : pending) { // oldest first: a key's older records go in first
                    while (c.current && c.hash <= last) {
                        c.applyTo(keys);
                        c.advance();
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            closeAll(failure);
        }
    }

    /** Closes the files of the pending hints without applying them; idempotent. */
    @Override
    public void close() {
        closeAll(null);
    }

    /** Closes every pending file; a failure to close is added to {@code failure}, or thrown when there is none. */
    private void closeAll(Throwable failure) {
        RuntimeException first = null;
        for (Cursor c : pending) {
            try {
                c.file.close();
            } catch (RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        pending.clear();
        pendingEntries = 0;
        if (first != null) {
            throw first;
        }
    }

    /** Closes {@code file} after {@code failure}, to which a failure to close is added. */
    static void close(SegmentReader file, Throwable failure) {
        try {
            file.close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** One hint file being read: its next entry, and that entry's place in the sweep. */
    private static final class Cursor {
        /** Final. */
        private final Segment seg;
        /** The hint file's name, for messages. Final. */
        private final Path path;
        /** The hint file. Final. */
        private final SegmentReader file;
        /** Reads {@code file} front to back, keeping its CRC. Final. */
        private final HintReader hint;
        /** Where the entries end. Final. */
        private final long body;
        /** Start of the next entry in the file. */
        private long next = HintFormat.HEADER_SIZE;
        /** Start of the current entry in {@code hint}'s window, valid until the next {@link #advance}. */
        private int at;
        /** Key length of the current entry. */
        private int keyLength;
        /** Hash of the current entry's key, signed, as the file is sorted. */
        private int hash;
        /** True while there is a current entry. */
        private boolean current;

        Cursor(Segment seg, Path path, SegmentReader file, long size) {
            this.seg = seg;
            this.path = path;
            this.file = file;
            this.hint = new HintReader(file::read, size, true);
            this.body = size - HintFormat.FOOTER_SIZE;
        }

        /**
         * Moves to the next entry, if there is one ({@link #current}). After the last, checks the
         * file's CRC again: the bytes loaded must be the bytes {@link HintFormat#validate} checked.
         *
         * @throws BitCaskCorruptionException when the file changed after it was checked
         */
        void advance() {
            current = next < body;
            if (!current) {
                if (!hint.crcMatches()) {
                    throw changed();
                }
                return;
            }
            int e = hint.load(next, HintFormat.ENTRY_SIZE);
            keyLength = RecordFormat.getUnsignedShort(hint.window(), e + HintFormat.ENTRY_KEY_LENGTH);
            if (next + HintFormat.ENTRY_SIZE + keyLength > body) {
                throw changed();
            }
            at = hint.load(next, HintFormat.ENTRY_SIZE + keyLength);
            hash = KeyHash.hash(hint.window(), at + HintFormat.ENTRY_SIZE, keyLength);
            next += HintFormat.ENTRY_SIZE + keyLength;
        }

        private BitCaskCorruptionException changed() {
            return new BitCaskCorruptionException(path + " changed after open checked it; open the store again");
        }

        /** Points the key directory at the current entry's record. */
        void applyTo(KeyDirWriter keys) {
            byte[] w = hint.window();
            keys.index(seg, Integer.toUnsignedLong(RecordFormat.getInt(w, at + HintFormat.ENTRY_OFFSET)),
                    RecordFormat.getInt(w, at + HintFormat.ENTRY_LENGTH),
                    RecordFormat.getUnsignedShort(w, at + HintFormat.ENTRY_FLAGS),
                    w, at + HintFormat.ENTRY_SIZE, keyLength, hash);
        }
    }
}
