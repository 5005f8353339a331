package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.segment.RecordPlace;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threading: the merging thread only.
 *
 * <p>A merge's reads of its inputs: the records at given places and nothing between them. Places
 * are read in file order, and records that lie end to end are read together, up to
 * {@link #RUN_BYTES} a read, so a run of live records costs one positional read, not one each.
 *
 * <p>Each record read is checked as the scanner checks it: a plausible header of the length its
 * place says, and a CRC bound to the input's salt and the record's offset. One that fails is passed
 * over with a WARN naming the file and the offset, and counted, as a scan would have skipped those
 * bytes: a live record's key reads as absent once the merge is done. Only that record is lost; a scan
 * passes over the whole batch around a failed member, but a live member's batch was whole when the
 * key directory took it, so its intact members are copied.
 */
final class InputReads {

    private static final Logger LOG = LoggerFactory.getLogger(InputReads.class);
    /** Most bytes one read takes when records lie end to end (a longer record is read alone). */
    static final int RUN_BYTES = 1 << 20;

    /** What a read lands in; merging thread. */
    private byte[] buf = new byte[64 << 10];
    /** Bytes read from the inputs so far; merging thread. */
    private long bytesRead;
    /** Bytes of records that failed their check; merging thread. */
    private long skippedBytes;

    /**
     * Reads the records of {@code in} at {@code places[from, to)} (in file order) and hands each
     * that checks out to {@code visitor}; the bytes it is handed are valid until it returns. The WARN
     * for one that fails ends with {@code lost}: what passing over it costs.
     */
    void read(Segment in, long[] places, int from, int to, String lost, SegmentScanner.RecordVisitor visitor) {
        for (int start = from; start < to; ) {
            long first = RecordPlace.offset(places[start]);
            int end = start + 1;
            long runEnd = first + RecordPlace.length(places[start]);
            while (end < to && RecordPlace.offset(places[end]) == runEnd
                    && runEnd + RecordPlace.length(places[end]) - first <= RUN_BYTES) {
                runEnd += RecordPlace.length(places[end]);
                end++;
            }
            int length = (int) (runEnd - first);
            if (buf.length < length) {
                buf = new byte[Math.max(length, Math.min(2 * buf.length, RUN_BYTES))];
            }
            in.reader().read(first, buf, 0, length);
            bytesRead += length;
            for (int i = start; i < end; i++) {
                long offset = RecordPlace.offset(places[i]);
                int len = RecordPlace.length(places[i]);
                int at = (int) (offset - first);
                if (intact(buf, at, len, in.salt(), offset)) {
                    visitor.record(offset, buf, at, len);
                } else {
                    skippedBytes += len;
                    LOG.warn("{}: the record at offset {} ({} bytes) fails its check; the merge passes over it: {}",
                            in.file(), offset, len, lost);
                }
            }
            start = end;
        }
    }

    /** True when {@code b[off, off + length)} is a whole record, not a batch header, that belongs at {@code offset} of a file with {@code salt}. */
    private static boolean intact(byte[] b, int off, int length, long salt, long offset) {
        if (length < RecordFormat.HEADER_SIZE) {
            return false;
        }
        int flags = RecordFormat.flags(b, off);
        return (flags & RecordFormat.BATCH) == 0
                && RecordFormat.plausibleLength(b, off, (flags & RecordFormat.IN_BATCH) != 0) == length
                && RecordFormat.crcMatches(b, off, length, salt, offset);
    }

    /** Bytes read from the inputs so far. */
    long bytesRead() {
        return bytesRead;
    }

    /** Bytes of the records read that failed their check and were passed over. */
    long skippedBytes() {
        return skippedBytes;
    }
}
