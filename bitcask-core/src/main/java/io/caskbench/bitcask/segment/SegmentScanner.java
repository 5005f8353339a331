package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * Threading: one thread per scanner; recovery, verify, repair and hint writing each make their
 * own. A merge reads only the live records of its inputs, not through a scanner.
 *
 * <p>Reads the records of a data file in order and decides where its valid content ends.
 *
 * <p>A record is accepted only when its header is plausible and its check field matches its CRC
 * for this file's salt and the record's own offset, so bytes that merely look like a record (inside
 * a torn value, or copied from elsewhere) are never accepted. A batch is accepted only when its
 * header, its member span and every member check out; a member on its own never is. Limits are the
 * format's, not a store's options. Bad bytes are handled so that nothing is silent:
 * <ul>
 *   <li>a zero-filled tail is unused preallocated space: the content ends there;</li>
 *   <li>bad bytes followed by a valid record are corruption inside the file: they are skipped
 *       with a WARN naming the file and the range, and the later records are kept;</li>
 *   <li>bad bytes with no valid record after them are a torn tail: the content ends at their
 *       offset, with a WARN, and the caller truncates the file there.</li>
 * </ul>
 *
 * <p>A scan given a {@link SalvageVisitor} also hands it, before it reports bad bytes, every batch
 * member in them that checks on its own: the members of a batch whose span fails, or whose header
 * does. Open never applies those from a scan (a torn batch's members check one by one too); a
 * rebuilt hint keeps those its earlier hint listed, and a salvage reads them all.
 */
public final class SegmentScanner {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentScanner.class);
    private static final int CHUNK = 1 << 20;

    /** Final, safe everywhere. */
    private final SegmentReader reader;
    /** Where bad bytes are reported; final, safe everywhere. */
    private final DamageListener damage;
    /** Bytes to scan; final, safe everywhere. */
    private final long length;
    /** Final, safe everywhere. */
    private final long salt;
    /** Bytes read from the file; scanning thread. */
    private byte[] buf = new byte[CHUNK];
    /** File offset of {@code buf[0]}; scanning thread. */
    private long base;
    /** Bytes of {@code buf} that hold file content; scanning thread. */
    private int filled;

    /** Receives each accepted record; the record's bytes are {@code buf[off, off + length)}. */
    @FunctionalInterface
    public interface RecordVisitor {
        /** One record at {@code offset} in the file. */
        void record(long offset, byte[] buf, int off, int length);
    }

    /** Receives the batch members that check on their own inside bad bytes; see the class comment. */
    @FunctionalInterface
    public interface SalvageVisitor {
        /**
         * A member at {@code offset}, its bytes {@code buf[off, off + length)}, inside the bad bytes
         * {@code [unit, unitEnd)}: an intact batch header's span when {@code headerIntact}, else bad
         * bytes without one, which start at {@code unit}.
         */
        void salvaged(long unit, long unitEnd, boolean headerIntact, long offset, byte[] buf, int off, int length);
    }

    /**
     * Hears about the bad bytes a scan passes over. Recovery's listener logs them; a verifier
     * collects them. Either way the scan decides alike.
     */
    public interface DamageListener {
        /**
         * {@code length} bad bytes at {@code offset} with a valid record after them: skipped.
         *
         * @param batch true when they are the span of an intact batch header whose members failed
         */
        void skipped(long offset, long length, boolean batch);

        /**
         * Bad bytes from {@code offset} to the end of the file, {@code length} of them, with no valid
         * record after them: a torn tail, where the content ends.
         *
         * @param batch true when they start with an intact batch header whose members failed
         */
        void torn(long offset, long length, boolean batch);
    }

    /**
     * What a scan found.
     *
     * @param end          offset where the valid content ends
     * @param records      records accepted
     * @param skippedBytes bytes of corruption skipped inside the file
     * @param tornBytes    bytes of a non-zero invalid tail after {@code end}
     */
    public record Result(long end, long records, long skippedBytes, long tornBytes) {
    }

    /**
     * A scanner of the first {@code length} bytes of {@code file}, read through {@code reader};
     * {@code salt} is the salt of the file's header.
     */
    public SegmentScanner(SegmentReader reader, Path file, long length, long salt) {
        this(reader, length, salt, logging(file));
    }

    /** A scanner that reports bad bytes to {@code damage} instead of logging them. */
    public SegmentScanner(SegmentReader reader, long length, long salt, DamageListener damage) {
        this.reader = reader;
        this.damage = damage;
        this.length = length;
        this.salt = salt;
    }

    /** The listener recovery uses: a WARN that names the file and the range. */
    private static DamageListener logging(Path file) {
        return new DamageListener() {
            @Override
            public void skipped(long offset, long length, boolean batch) {
                if (batch) {
                    LOG.warn("{}: skipping a corrupt batch of {} bytes at offset {}; records after it are kept", file, length, offset);
                } else {
                    LOG.warn("{}: skipping {} corrupt bytes at offset {}; records after them are kept", file, length, offset);
                }
            }

            @Override
            public void torn(long offset, long length, boolean batch) {
                LOG.warn("{}: torn {} at offset {} ({} bytes); the data ends there", file,
                        batch ? "batch" : "or corrupt tail", offset, length);
            }
        };
    }

    /** Scans from {@code from} to the end of the file. */
    public Result scan(long from, RecordVisitor visitor) {
        return scan(from, visitor, null);
    }

    /**
     * Scans from {@code from} to the end of the file, handing {@code salvage} (when not null) the
     * members of the bad bytes that check on their own.
     */
    public Result scan(long from, RecordVisitor visitor, SalvageVisitor salvage) {
        long pos = from;
        long records = 0;
        long skipped = 0;
        while (pos < length) {
            int len = validAt(pos);
            if (len > 0) {
                records += visit(pos, len, visitor);
                pos += len;
                continue;
            }
            if (zeroFrom(pos)) {
                return new Result(pos, records, skipped, 0);
            }
            long batchEnd = tornBatchEnd(pos);
            if (batchEnd > 0) {
                // An intact batch header with a bad span: its members must not be picked up one by
                // one by the resync below, or half a batch would come back. Skip the whole span.
                if (salvage != null) {
                    salvageMembers(pos, Math.min(batchEnd, length), true, pos + RecordFormat.BATCH_HEADER_SIZE, salvage);
                }
                if (batchEnd >= length || zeroFrom(batchEnd)) {
                    damage.torn(pos, length - pos, true);
                    return new Result(pos, records, skipped, length - pos);
                }
                damage.skipped(pos, batchEnd - pos, true);
                skipped += batchEnd - pos;
                pos = batchEnd;
                continue;
            }
            long next = resync(pos + 1);
            if (salvage != null) {
                salvageMembers(pos, next < 0 ? length : next, false, pos, salvage);
            }
            if (next < 0) {
                damage.torn(pos, length - pos, false);
                return new Result(pos, records, skipped, length - pos);
            }
            damage.skipped(pos, next - pos, false);
            skipped += next - pos;
            pos = next;
        }
        return new Result(pos, records, skipped, 0);
    }

    /** Length of the valid record or batch at {@code pos}, or -1. */
    private int validAt(long pos) {
        if (!ensure(pos, RecordFormat.HEADER_SIZE)) {
            return -1;
        }
        int len = RecordFormat.plausibleLength(buf, index(pos), false);
        if (len < 0 || !ensure(pos, len) || !RecordFormat.crcMatches(buf, index(pos), len, salt, pos)) {
            return -1;
        }
        if ((RecordFormat.flags(buf, index(pos)) & RecordFormat.BATCH) == 0) {
            return len;
        }
        int count = RecordFormat.batchCount(buf, index(pos));
        int span = RecordFormat.batchSpan(buf, index(pos));
        int spanCrc = RecordFormat.batchCrc(buf, index(pos));
        if (span < 0 || count < 0 || (long) len + span > Integer.MAX_VALUE || !ensure(pos, len + span)) {
            return -1;
        }
        int start = index(pos) + len;
        if (RecordFormat.crc(buf, start, span) != spanCrc) {
            return -1;
        }
        int p = start;
        for (int i = 0; i < count; i++) {
            int m = p < start + span - RecordFormat.HEADER_SIZE + 1 ? RecordFormat.plausibleLength(buf, p, true) : -1;
            if (m < 0 || p + m > start + span || (RecordFormat.flags(buf, p) & RecordFormat.BATCH) != 0
                    || !RecordFormat.crcMatches(buf, p, m, salt, pos + (p - index(pos)))) {
                return -1;
            }
            p += m;
        }
        return p == start + span ? len + span : -1;
    }

    /** End of the span declared by an intact batch header at {@code pos}, or -1 when there is none. */
    private long tornBatchEnd(long pos) {
        if (!ensure(pos, RecordFormat.HEADER_SIZE)) {
            return -1;
        }
        int len = RecordFormat.plausibleLength(buf, index(pos), false);
        if (len < 0 || (RecordFormat.flags(buf, index(pos)) & RecordFormat.BATCH) == 0 || !ensure(pos, len)
                || !RecordFormat.crcMatches(buf, index(pos), len, salt, pos)) {
            return -1;
        }
        int span = RecordFormat.batchSpan(buf, index(pos));
        return span < 0 ? -1 : pos + len + span;
    }

    /** Visits a record, or each member of a batch; returns how many records were visited. */
    private int visit(long pos, int len, RecordVisitor visitor) {
        int at = index(pos);
        if ((RecordFormat.flags(buf, at) & RecordFormat.BATCH) == 0) {
            visitor.record(pos, buf, at, len);
            return 1;
        }
        int headerLen = RecordFormat.BATCH_HEADER_SIZE;
        int count = RecordFormat.batchCount(buf, at);
        int p = at + headerLen;
        for (int i = 0; i < count; i++) {
            int m = RecordFormat.recordLength(RecordFormat.flags(buf, p), RecordFormat.keyLength(buf, p),
                    RecordFormat.valueLength(buf, p));
            visitor.record(pos + (p - at), buf, p, m);
            p += m;
        }
        return count;
    }

    /**
     * Hands {@code salvage} every member in {@code [from, unitEnd)} that checks on its own, stepping
     * from one to the next and, past bytes that do not, one byte at a time.
     */
    private void salvageMembers(long unit, long unitEnd, boolean headerIntact, long from, SalvageVisitor salvage) {
        for (long p = from; p + RecordFormat.HEADER_SIZE <= unitEnd; ) {
            int len = memberAt(p, unitEnd);
            if (len > 0) {
                salvage.salvaged(unit, unitEnd, headerIntact, p, buf, index(p), len);
                p += len;
            } else {
                p++;
            }
        }
    }

    /** Length of a batch member at {@code pos} that ends by {@code limit} and checks on its own, or -1. */
    private int memberAt(long pos, long limit) {
        if (!ensure(pos, RecordFormat.HEADER_SIZE)) {
            return -1;
        }
        int len = RecordFormat.plausibleLength(buf, index(pos), true);
        if (len < 0 || pos + len > limit || !ensure(pos, len) || !RecordFormat.crcMatches(buf, index(pos), len, salt, pos)) {
            return -1;
        }
        return len;
    }

    private long resync(long from) {
        for (long p = from; p + RecordFormat.HEADER_SIZE <= length; p++) {
            if (validAt(p) > 0) {
                return p;
            }
        }
        return -1;
    }

    private boolean zeroFrom(long pos) {
        for (long p = pos; p < length; ) {
            int n = (int) Math.min(CHUNK, length - p);
            ensure(p, n);
            int at = index(p);
            for (int i = 0; i < n; i++) {
                if (buf[at + i] != 0) {
                    return false;
                }
            }
            p += n;
        }
        return true;
    }

    private int index(long pos) {
        return (int) (pos - base);
    }

    /** Makes {@code [pos, pos + n)} available in the buffer; false when it runs past the file. */
    private boolean ensure(long pos, int n) {
        if (n < 0 || pos + n > length) {
            return false;
        }
        if (pos >= base && pos + n <= base + filled) {
            return true;
        }
        if (n > buf.length) {
            buf = new byte[Math.max(n, buf.length * 2)];
        }
        int want = (int) Math.min(buf.length, length - pos);
        reader.read(pos, buf, 0, want);
        base = pos;
        filled = want;
        return true;
    }
}
