package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;

import java.util.Arrays;

/**
 * Compares a hint file that passed {@link HintFormat#validate} with the records a scan of its data
 * file accepts, in offset order: open trusts such a hint without reading the data, so every entry
 * must name a record the scan accepts, with the same length, flags, expiry and key, and the scan
 * must accept no record before the hint's covered offset that the hint leaves out. The covered
 * offset must not fall inside a record or batch either, or open's scan from there would start in
 * the middle of one.
 */
final class HintComparison {

    private final byte[] hint;
    private final long covered;
    /** Entries as (data offset << 32 | position in the hint), sorted: data offsets fit in 31 bits. */
    private long[] entries = new long[64];
    private int count;
    private int next;
    private long disagreements;
    private String first;
    /** Where the batch that the last member visited belongs to starts, or -1. */
    private long batchStart = -1;
    private long previousEnd = -1;

    HintComparison(byte[] hint, long covered) {
        this.hint = hint;
        this.covered = covered;
        HintFormat.forEach(hint, (offset, recordLength, flags, expiresAt, buf, keyOff, keyLength) ->
                add((offset << 32) | (keyOff - HintFormat.ENTRY_SIZE)));
        Arrays.sort(entries, 0, count);
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
        while (next < count && entryOffset(next) < offset) {
            disagree("it lists a record at offset " + entryOffset(next) + " that the data file does not hold");
            next++;
        }
        if (next == count || entryOffset(next) != offset) {
            disagree("it leaves out the record at offset " + offset);
            return;
        }
        int p = (int) entries[next++];
        int flags = RecordFormat.flags(buf, off) & (RecordFormat.TOMBSTONE | RecordFormat.EXPIRES);
        int keyLength = RecordFormat.keyLength(buf, off);
        int keyOff = off + RecordFormat.keyOffset(flags);
        if (RecordFormat.getInt(hint, p + 4) != length || RecordFormat.getUnsignedShort(hint, p + 8) != flags
                || RecordFormat.getUnsignedShort(hint, p + 10) != keyLength
                || RecordFormat.getLong(hint, p + 12) != RecordFormat.expiresAt(buf, off)
                || !Arrays.equals(hint, p + HintFormat.ENTRY_SIZE, p + HintFormat.ENTRY_SIZE + keyLength,
                        buf, keyOff, keyOff + keyLength)) {
            disagree("its entry for the record at offset " + offset + " differs from the record");
        }
    }

    /** Ends the comparison at the scan's valid end; returns what disagrees, or null when nothing does. */
    String finish(long validEnd) {
        for (; next < count; next++) {
            disagree("it lists a record at offset " + entryOffset(next) + " that the data file does not hold");
        }
        if (covered > validEnd) {
            disagree("it covers the data up to offset " + covered + ", past the valid end at " + validEnd);
        }
        return disagreements == 0 ? null
                : disagreements + (disagreements == 1 ? " disagreement" : " disagreements") + " with the data; the first: " + first;
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
