package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;

import java.util.Arrays;

/**
 * Threading: one thread per comparison, the one that scans the data file.
 *
 * <p>Compares a hint file that passed {@link HintFormat#validate} with the records a scan of its data
 * file accepts, in offset order: open trusts such a hint without reading the data, so every entry
 * must name a record the scan accepts, with the same length, flags, expiry and key, and the scan
 * must accept no record before the hint's covered offset that the hint leaves out. The covered
 * offset must not fall inside a record or batch either, or open's scan from there would start in
 * the middle of one. A member of a damaged batch that checks on its own the hint may list or not (a
 * batch it listed whole and that was damaged since, or one it never listed), but what it lists of it
 * must be the record.
 *
 * <p>Two modes, so that a healthy store costs no sort and no memory per entry. The quick one adds
 * up a 64-bit digest of every entry and of every record the hint should list, in any order, and
 * only says whether the two sums and counts agree. The exact one, run again over the data file
 * only when they do not, sorts the entries by offset and names the first disagreement.
 */
final class HintComparison {

    /** What {@link #finish} of a quick comparison returns when the exact one must say more. */
    static final String LOOK_CLOSER = "the hint disagrees with its data";

    // Every field belongs to the comparing thread.
    /** The hint file's bytes; final. */
    private final byte[] hint;
    /** Where the hint says the data it covers ends; final. */
    private final long covered;
    /** True for the comparison that names the first disagreement; final. */
    private final boolean exact;
    /** Exact mode: entries as (data offset << 32 | position in the hint), sorted; data offsets fit in 31 bits. */
    private long[] entries = new long[64];
    /** Entries in the hint. */
    private int count;
    /** Exact mode: the next entry to match against a record. */
    private int next;
    /** Quick mode: the digest of the hint's entries. */
    private long hintDigest;
    /** Quick mode: the digest of the records the hint should list. */
    private long dataDigest;
    /** Quick mode: how many records the hint should list. */
    private long dataCount;
    /** Disagreements found. */
    private long disagreements;
    /** The first disagreement, in words, or null. */
    private String first;
    /** Where the batch that the last member visited belongs to starts, or -1. */
    private long batchStart = -1;
    /** Where the last record visited ends, or -1. */
    private long previousEnd = -1;

    private HintComparison(byte[] hint, long covered, boolean exact) {
        this.hint = hint;
        this.covered = covered;
        this.exact = exact;
        HintFormat.forEach(hint, (offset, recordLength, flags, expiresAt, buf, keyOff, keyLength) -> {
            if (exact) {
                add((offset << 32) | (keyOff - HintFormat.ENTRY_SIZE));
            } else {
                hintDigest += digest(offset, recordLength, flags, expiresAt, buf, keyOff, keyLength);
                count++;
            }
        });
        if (exact) {
            Arrays.sort(entries, 0, count);
        }
    }

    /** A comparison that only tells whether hint and data agree. */
    static HintComparison quick(byte[] hint, long covered) {
        return new HintComparison(hint, covered, false);
    }

    /** A comparison that names the first disagreement. */
    static HintComparison exact(byte[] hint, long covered) {
        return new HintComparison(hint, covered, true);
    }

    private void add(long entry) {
        if (count == entries.length) {
            entries = Arrays.copyOf(entries, count * 2);
        }
        entries[count++] = entry;
    }

    /** One record the scan accepted, in offset order. */
    void record(long offset, byte[] buf, int off, int length) {
        boolean member = (RecordFormat.flags(buf, off) & RecordFormat.IN_BATCH) != 0;
        if (member && (batchStart < 0 || previousEnd != offset)) {
            batchStart = offset - RecordFormat.BATCH_HEADER_SIZE;
        } else if (!member) {
            batchStart = -1;
        }
        previousEnd = offset + length;
        long unitStart = member ? batchStart : offset;
        if (offset + length > covered) {
            if (unitStart < covered && covered < offset + length) {
                disagree("it covers the data up to offset " + covered + ", inside the record at offset " + offset);
            }
            return;
        }
        int flags = RecordFormat.flags(buf, off) & (RecordFormat.TOMBSTONE | RecordFormat.EXPIRES);
        int keyLength = RecordFormat.keyLength(buf, off);
        int keyOff = off + RecordFormat.keyOffset(flags);
        if (!exact) {
            dataDigest += digest(offset, length, flags, RecordFormat.expiresAt(buf, off), buf, keyOff, keyLength);
            dataCount++;
            return;
        }
        while (next < count && entryOffset(next) < offset) {
            disagree("it lists a record at offset " + entryOffset(next) + " that the data file does not hold");
            next++;
        }
        if (next == count || entryOffset(next) != offset) {
            disagree("it leaves out the record at offset " + offset);
            return;
        }
        compareEntry(offset, buf, off, length);
    }

    /**
     * A batch member that checks on its own inside bad bytes, visited in offset order with the records:
     * the hint may list it (a batch it listed whole, damaged since) or not (a torn batch, or a hint
     * rebuilt by a scan that left the batch out), but what it lists must be the record.
     */
    void salvaged(long offset, byte[] buf, int off, int length) {
        if (!exact || offset + length > covered) {
            return; // quick: a hint that lists it disagrees with the sums, and the exact comparison decides
        }
        while (next < count && entryOffset(next) < offset) {
            disagree("it lists a record at offset " + entryOffset(next) + " that the data file does not hold");
            next++;
        }
        if (next < count && entryOffset(next) == offset) {
            compareEntry(offset, buf, off, length);
        }
    }

    /** Compares the next entry, which lists {@code offset}, with the record there, and moves past it. */
    private void compareEntry(long offset, byte[] buf, int off, int length) {
        if (!HintFormat.lists(hint, (int) entries[next++], buf, off, length)) {
            disagree("its entry for the record at offset " + offset + " differs from the record");
        }
    }

    /**
     * Ends the comparison at the scan's valid end; returns what disagrees, null when nothing does,
     * or, from a quick comparison, {@link #LOOK_CLOSER} when something does.
     */
    String finish(long validEnd) {
        for (; exact && next < count; next++) {
            disagree("it lists a record at offset " + entryOffset(next) + " that the data file does not hold");
        }
        if (covered > validEnd) {
            disagree("it covers the data up to offset " + covered + ", past the valid end at " + validEnd);
        }
        if (!exact && (dataCount != count || dataDigest != hintDigest)) {
            disagree(LOOK_CLOSER);
        }
        if (disagreements == 0) {
            return null;
        }
        return exact ? disagreements + (disagreements == 1 ? " disagreement" : " disagreements")
                + " with the data; the first: " + first : LOOK_CLOSER;
    }

    /** A 64-bit digest of one entry, the same whether it is computed from the hint or from the record. */
    private static long digest(long offset, long length, int flags, long expiresAt, byte[] b, int keyOff, int keyLength) {
        long h = offset * 0x9E3779B97F4A7C15L ^ length * 0xC2B2AE3D27D4EB4FL ^ (long) flags << 48 ^ mix(expiresAt);
        for (int i = 0; i < keyLength; i++) {
            h = (h ^ (b[keyOff + i] & 0xFF)) * 0x100000001B3L;
        }
        return mix(h ^ keyLength);
    }

    /** The finalizer of SplitMix64: every input bit moves every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private long entryOffset(int i) {
        return entries[i] >>> 32;
    }

    private void disagree(String what) {
        if (disagreements++ == 0) {
            first = what;
        }
    }
}
