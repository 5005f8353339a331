package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.segment.Segment;

import java.util.ArrayList;
import java.util.List;

/**
 * Threading: the opening thread only.
 *
 * <p>Loads the hint files of consecutive segments into the key directory in one pass in hash
 * order, instead of one pass per file. Each hint file is sorted by hash, so loading one fills the
 * directory front to back; but with many files, each pass touches one slot in every few hundred
 * bytes of a table that no cache holds, a cache and TLB miss per key. Merging the files by hash
 * fills the table in a single sweep, so neighbouring keys share cache lines and pages.
 *
 * <p>Order per key is what replay needs: entries of equal hash go in file order, and within a
 * file in the order written, so the newest record of a key is applied last, as when the files
 * are loaded one by one. The caller adds segments oldest first, and applies the sweep before it
 * loads any later segment another way. The hints held at once are bounded by {@code budgetBytes}:
 * past it the sweep is applied and starts again.
 */
final class HintSweep {

    /** Most hint bytes one sweep holds in memory before it is applied, whatever the heap. */
    static final long MAX_BUDGET = 256L << 20;
    /** Fewest hint bytes one sweep may hold, however small the heap. */
    static final long MIN_BUDGET = 16L << 20;

    /** Final, safe everywhere. */
    private final KeyDirWriter keys;
    /** Final. */
    private final long budgetBytes;
    /** Hinted segments waiting, oldest first; opening thread. */
    private final List<Cursor> pending = new ArrayList<>();
    /** Bytes of {@code pending}'s hints; opening thread. */
    private long pendingBytes;

    /**
     * The store's budget: {@link #MAX_BUDGET}, or an eighth of the largest heap the JVM may use when that
     * is less (but not under {@link #MIN_BUDGET}): over loading one hint file at a time, the sweep then
     * asks a small heap for little more.
     */
    static long defaultBudget() {
        return Math.max(MIN_BUDGET, Math.min(MAX_BUDGET, Runtime.getRuntime().maxMemory() / 8));
    }

    /** A sweep into {@code keys} that holds at most about {@code budgetBytes} of hints at once. */
    HintSweep(KeyDirWriter keys, long budgetBytes) {
        this.keys = keys;
        this.budgetBytes = budgetBytes;
    }

    /**
     * Adds a segment whose hint file {@link HintFormat#validate} accepted; applies the sweep when its
     * budget is reached. When the hint leaves part of the data file unlisted, the caller applies the
     * sweep before it scans that part.
     */
    void add(Segment seg, byte[] hint) {
        pending.add(new Cursor(seg, hint, pending.size()));
        pendingBytes += hint.length;
        if (pendingBytes >= budgetBytes) {
            apply();
        }
    }

    /** Applies every pending hint to the key directory; nothing is pending after. */
    void apply() {
        if (pending.isEmpty()) {
            return;
        }
        Cursor[] heap = new Cursor[pending.size()];
        int n = 0;
        for (Cursor c : pending) {
            if (c.advance()) {
                heap[n++] = c;
            }
        }
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(heap, i, n);
        }
        while (n > 0) {
            Cursor c = heap[0];
            c.applyTo(keys);
            if (!c.advance()) {
                heap[0] = heap[--n];
                heap[n] = null;
            }
            siftDown(heap, 0, n);
        }
        pending.clear();
        pendingBytes = 0;
    }

    private static void siftDown(Cursor[] heap, int i, int n) {
        Cursor c = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && heap[child + 1].order < heap[child].order) {
                child++;
            }
            if (heap[child].order >= c.order) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = c;
    }

    /** One hint file being read: where its next entry starts, and that entry's place in the sweep. */
    private static final class Cursor {
        /** Final. */
        private final Segment seg;
        /** Final. */
        private final byte[] hint;
        /** Where the entries end. Final. */
        private final int body;
        /** The file's place among the pending ones, oldest 0. Final. */
        private final int fileOrder;
        /** Start of the current entry; -1 before the first. */
        private int at = -1;
        /** Start of the next entry. */
        private int next = HintFormat.HEADER_SIZE;
        /** Hash of the current entry's key. */
        private int hash;
        /** Sort key: the current entry's hash, signed as the hint files are sorted, then the file's order. */
        private long order;

        Cursor(Segment seg, byte[] hint, int fileOrder) {
            this.seg = seg;
            this.hint = hint;
            this.body = hint.length - HintFormat.FOOTER_SIZE;
            this.fileOrder = fileOrder;
        }

        /** Moves to the next entry; false when there is none. */
        boolean advance() {
            if (next >= body) {
                return false;
            }
            at = next;
            int keyLength = RecordFormat.getUnsignedShort(hint, at + HintFormat.ENTRY_KEY_LENGTH);
            hash = KeyHash.hash(hint, at + HintFormat.ENTRY_SIZE, keyLength);
            order = ((long) hash << 32) | fileOrder;
            next = at + HintFormat.ENTRY_SIZE + keyLength;
            return true;
        }

        /** Points the key directory at the current entry's record. */
        void applyTo(KeyDirWriter keys) {
            keys.index(seg, Integer.toUnsignedLong(RecordFormat.getInt(hint, at + HintFormat.ENTRY_OFFSET)),
                    RecordFormat.getInt(hint, at + HintFormat.ENTRY_LENGTH),
                    RecordFormat.getUnsignedShort(hint, at + HintFormat.ENTRY_FLAGS),
                    hint, at + HintFormat.ENTRY_SIZE, next - at - HintFormat.ENTRY_SIZE, hash);
        }
    }
}
