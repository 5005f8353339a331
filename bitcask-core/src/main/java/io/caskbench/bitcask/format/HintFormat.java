package io.caskbench.bitcask.format;

import java.util.Arrays;

/**
 * The layout of a hint file: a compact list of the records of one data file, so that open can
 * rebuild the key directory without reading values.
 *
 * <pre>
 * HEADER (24 bytes)
 *   0  magic         int   'BCHT'
 *   4  version       short
 *   6  reserved      short
 *   8  segmentId     long
 *  16  coveredLength long  the data file's records up to this offset are listed
 * ENTRY (20 bytes + key)
 *   0  offset        int   record offset in the data file
 *   4  recordLength  int
 *   8  flags         short record flags (TOMBSTONE, EXPIRES)
 *  10  keyLength     short
 *  12  expiresAt     long
 *  20  key bytes
 * FOOTER (8 bytes)
 *   0  entryCount    int
 *   4  crc32c        int   CRC32C of every byte before it
 * </pre>
 *
 * A hint file whose CRC, header or entries do not check out is ignored and its data file scanned.
 */
public final class HintFormat {

    /** {@code 'BCHT'} in little-endian order. */
    public static final int MAGIC = 0x54484342;
    /** Header size. */
    public static final int HEADER_SIZE = 24;
    /** Fixed part of an entry. */
    public static final int ENTRY_SIZE = 20;
    /** Footer size. */
    public static final int FOOTER_SIZE = 8;

    private HintFormat() {
    }

    /**
     * Accumulates entries and produces the bytes of a hint file. Entries are written sorted by the
     * key directory's hash (unsigned), ties in record order, so that loading a hint file fills the
     * directory front to back; see {@code KeyDir.Table#first}.
     */
    public static final class Builder {
        private byte[] buf = new byte[1 << 16];
        private int len = HEADER_SIZE;
        private int count;
        private long[] order = new long[1024];
        private int[] starts = new int[1024];
        private final long segmentId;

        /** Starts a hint file for {@code segmentId}. */
        public Builder(long segmentId) {
            this.segmentId = segmentId;
        }

        /** Adds the record at {@code offset} whose bytes start at {@code record[off]}. */
        public void add(long offset, byte[] record, int off, int recordLength) {
            int flags = RecordFormat.flags(record, off);
            int keyLength = RecordFormat.keyLength(record, off);
            ensure(ENTRY_SIZE + keyLength);
            RecordFormat.putInt(buf, len, (int) offset);
            RecordFormat.putInt(buf, len + 4, recordLength);
            RecordFormat.putShort(buf, len + 8, flags);
            RecordFormat.putShort(buf, len + 10, keyLength);
            RecordFormat.putLong(buf, len + 12, RecordFormat.expiresAt(record, off));
            int keyOff = off + RecordFormat.keyOffset(flags);
            System.arraycopy(record, keyOff, buf, len + ENTRY_SIZE, keyLength);
            if (count == order.length) {
                order = Arrays.copyOf(order, count * 2);
                starts = Arrays.copyOf(starts, count * 2);
            }
            int hash = io.caskbench.bitcask.index.KeyHash.hash(record, keyOff, keyLength);
            order[count] = (Integer.toUnsignedLong(hash) << 32) | count;
            starts[count] = len;
            len += ENTRY_SIZE + keyLength;
            count++;
        }

        private void ensure(int more) {
            if (len + more + FOOTER_SIZE > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more + FOOTER_SIZE));
            }
        }

        /** The complete file for records up to {@code coveredLength}; the builder is spent. */
        public byte[] finish(long coveredLength) {
            byte[] out = new byte[len + FOOTER_SIZE];
            Arrays.sort(order, 0, count); // by hash, then by record order: the same key keeps its order
            int p = HEADER_SIZE;
            for (int i = 0; i < count; i++) {
                int start = starts[(int) order[i]];
                int size = ENTRY_SIZE + RecordFormat.getUnsignedShort(buf, start + 10);
                System.arraycopy(buf, start, out, p, size);
                p += size;
            }
            RecordFormat.putInt(out, 0, MAGIC);
            RecordFormat.putShort(out, 4, RecordFormat.VERSION);
            RecordFormat.putShort(out, 6, 0);
            RecordFormat.putLong(out, 8, segmentId);
            RecordFormat.putLong(out, 16, coveredLength);
            RecordFormat.putInt(out, len, count);
            RecordFormat.putInt(out, len + 4, RecordFormat.crc(out, 0, len + 4));
            return out;
        }
    }

    /** Receives the entries of a hint file. */
    @FunctionalInterface
    public interface EntryVisitor {
        /** One entry; the key is {@code hint[keyOff, keyOff + keyLength)}. */
        void entry(long offset, int recordLength, int flags, long expiresAt, byte[] hint, int keyOff, int keyLength);
    }

    /**
     * Checks a hint file completely: CRC, header, and that every entry lies within the covered
     * part of a data file of {@code dataLength} bytes.
     *
     * @return the covered length, or -1 with the reason in {@code why[0]} when the file is unusable
     */
    public static long validate(byte[] hint, long segmentId, long dataLength, int maxKey, int maxValue, String[] why) {
        if (hint.length < HEADER_SIZE + FOOTER_SIZE) {
            why[0] = "too short";
            return -1;
        }
        int body = hint.length - FOOTER_SIZE;
        if (RecordFormat.getInt(hint, body + 4) != RecordFormat.crc(hint, 0, body + 4)) {
            why[0] = "CRC mismatch";
            return -1;
        }
        if (RecordFormat.getInt(hint, 0) != MAGIC || RecordFormat.getLong(hint, 8) != segmentId) {
            why[0] = "header does not belong to segment " + segmentId;
            return -1;
        }
        long covered = RecordFormat.getLong(hint, 16);
        if (covered < RecordFormat.FILE_HEADER_SIZE || covered > dataLength) {
            why[0] = "covers " + covered + " bytes but the data file has " + dataLength;
            return -1;
        }
        int count = 0;
        int p = HEADER_SIZE;
        while (p < body) {
            if (p + ENTRY_SIZE > body) {
                why[0] = "truncated entry at " + p;
                return -1;
            }
            long offset = Integer.toUnsignedLong(RecordFormat.getInt(hint, p));
            int recordLength = RecordFormat.getInt(hint, p + 4);
            int flags = RecordFormat.getUnsignedShort(hint, p + 8);
            int keyLength = RecordFormat.getUnsignedShort(hint, p + 10);
            int expected = RecordFormat.keyOffset(flags) + keyLength;
            if (keyLength == 0 || keyLength > maxKey || (flags & ~(RecordFormat.TOMBSTONE | RecordFormat.EXPIRES)) != 0
                    || recordLength < expected || recordLength - expected > maxValue
                    || offset < RecordFormat.FILE_HEADER_SIZE || offset + recordLength > covered
                    || p + ENTRY_SIZE + keyLength > body) {
                why[0] = "bad entry at " + p;
                return -1;
            }
            p += ENTRY_SIZE + keyLength;
            count++;
        }
        if (count != RecordFormat.getInt(hint, body)) {
            why[0] = "entry count mismatch";
            return -1;
        }
        return covered;
    }

    /** Visits the entries of a hint file that {@link #validate} accepted. */
    public static void forEach(byte[] hint, EntryVisitor visitor) {
        int body = hint.length - FOOTER_SIZE;
        for (int p = HEADER_SIZE; p < body; ) {
            int keyLength = RecordFormat.getUnsignedShort(hint, p + 10);
            visitor.entry(Integer.toUnsignedLong(RecordFormat.getInt(hint, p)), RecordFormat.getInt(hint, p + 4),
                    RecordFormat.getUnsignedShort(hint, p + 8), RecordFormat.getLong(hint, p + 12),
                    hint, p + ENTRY_SIZE, keyLength);
            p += ENTRY_SIZE + keyLength;
        }
    }
}
