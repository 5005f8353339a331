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

    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final. */
    private final int maxFiles;
    /** What warming the directory read, kept only so that its loads are not dropped; opening thread. */
    private long warmed;
    /** Hinted segments waiting, oldest first; opening thread. */
    private final List<Cursor> pending = new ArrayList<>();

    /** A sweep into {@code keys} that holds at most {@code maxFiles} hint files at once. */
    HintSweep(KeyDirWriter keys, int maxFiles) {
        if (maxFiles < 1) {
            throw new IllegalArgumentException("a sweep holds at least one file: " + maxFiles);
        }
        this.keys = keys;
        this.maxFiles = maxFiles;
    }

    /**
     * Adds a segment whose hint file {@link HintFormat#validate} accepted, read from {@code file}, which
     * the sweep closes once applied, on {@link #close}, or when this call fails; applies the sweep when it holds its most
     * files. When the hint leaves part of the data file unlisted, the caller applies the sweep before
     * it scans that part.
     */
    void add(Segment seg, Path path, SegmentReader file) {
        Cursor c;
        try {
            c = new Cursor(seg, path, file);
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
        pending.add(c);
        if (pending.size() >= maxFiles) {
            apply();
        }
    }

    /**
     * Applies every pending hint to the key directory, one band of hashes at a time; nothing is
     * pending after.
     */
    void apply() {
        if (pending.isEmpty()) {
            return;
        }
        try {
            for (Cursor c : pending) {
                c.advance();
            }
            long span = (1L << 32) / BANDS;
            for (int band = 0; band < BANDS; band++) {
                long first = Integer.MIN_VALUE + band * span;
                long last = band == BANDS - 1 ? Integer.MAX_VALUE : first + span - 1;
                warmed += keys.warm((int) first, (int) last);
                for (Cursor c : pending) { // oldest first: a key's older records go in first
                    while (c.current && c.hash <= last) {
                        c.applyTo(keys);
                        c.advance();
                    }
                }
            }
        } finally {
            close();
        }
    }

    /** Closes the files of the pending hints without applying them; idempotent. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (Cursor c : pending) {
            try {
                c.file.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        pending.clear();
        if (first != null) {
            throw first;
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
        /** Reads {@code file} front to back. Final. */
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

        Cursor(Segment seg, Path path, SegmentReader file) {
            this.seg = seg;
            this.path = path;
            this.file = file;
            long size = file.size();
            this.hint = new HintReader(file::read, size, false);
            this.body = size - HintFormat.FOOTER_SIZE;
        }

        /**
         * Moves to the next entry; false when there is none.
         *
         * @throws BitCaskCorruptionException when an entry no longer fits the file, which can only happen
         *                                    when the file changed after it was checked
         */
        void advance() {
            current = next < body;
            if (!current) {
                return;
            }
            int e = hint.load(next, HintFormat.ENTRY_SIZE);
            keyLength = RecordFormat.getUnsignedShort(hint.window(), e + HintFormat.ENTRY_KEY_LENGTH);
            if (next + HintFormat.ENTRY_SIZE + keyLength > body) {
                throw new BitCaskCorruptionException(path + ": the entry at " + next
                        + " runs past the end of the entries; the file changed after open checked it");
            }
            at = hint.load(next, HintFormat.ENTRY_SIZE + keyLength);
            hash = KeyHash.hash(hint.window(), at + HintFormat.ENTRY_SIZE, keyLength);
            next += HintFormat.ENTRY_SIZE + keyLength;
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
