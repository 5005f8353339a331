package io.caskbench.bitcask.format;


import java.util.Arrays;

/**
 * Threading: static helpers, safe everywhere; a {@link Builder} is for one thread.
 *
 * <p>The layout of a hint file: a compact list of the records of one data file, so that open can
 * rebuild the key directory without reading values.
 *
 * <pre>
 * HEADER (32 bytes)
 *   0  magic         int   'BCHT'
 *   4  version       short
 *   6  reserved      short
 *   8  segmentId     long
 *  16  salt          long  the data file's salt: a hint never applies to another file of that id
 *  24  coveredLength long  the data file's records up to this offset are listed
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
 * Entries are sorted by the {@link KeyHash} of their key as a signed {@code int}, and entries of
 * equal hash are in the order their records were written: open loads the hint files of many
 * segments band of hashes by band and relies on it to apply each key's records oldest first.
 * A hint file whose CRC, header, entries or order do not check out is ignored and its data file scanned.
 * A hint is written only after its data file was forced, so after a power loss it never lists
 * records that are not on the disk.
 */
public final class HintFormat {

    /** {@code 'BCHT'} in little-endian order. */
    public static final int MAGIC = 0x54484342;
    /** Header size. */
    public static final int HEADER_SIZE = 32;
    /** Offset of the magic in the header. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version in the header. */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the reserved short in the header. */
    public static final int RESERVED_OFFSET = 6;
    /** Offset of the segment id in the header. */
    public static final int ID_OFFSET = 8;
    /** Offset of the data file's salt in the header. */
    public static final int SALT_OFFSET = 16;
    /** Offset of the covered length in the header. */
    public static final int COVERED_OFFSET = 24;
    /** Offset of the record's offset in an entry. */
    public static final int ENTRY_OFFSET = 0;
    /** Offset of the record's length in an entry. */
    public static final int ENTRY_LENGTH = 4;
    /** Offset of the record's flags in an entry. */
    public static final int ENTRY_FLAGS = 8;
    /** Offset of the key length in an entry. */
    public static final int ENTRY_KEY_LENGTH = 10;
    /** Offset of the expiry in an entry. */
    public static final int ENTRY_EXPIRES = 12;
    /** Fixed part of an entry; the key follows it. */
    public static final int ENTRY_SIZE = 20;
    /** Offset of the entry count in the footer. */
    public static final int FOOTER_COUNT = 0;
    /** Offset of the CRC in the footer. */
    public static final int FOOTER_CRC = 4;
    /** Footer size. */
    public static final int FOOTER_SIZE = 8;

    private HintFormat() {
    }

    /**
     * Accumulates entries and produces the bytes of a hint file. Entries are written sorted by the
     * key directory's hash as a signed {@code int}, ties in record order, so that loading a hint
     * file fills the directory's upper half front to back, then its lower half; see
     * {@code SlotTable#first}.
     */
    public static final class Builder {
        /** Final. */
        private final long segmentId;
        /** Final. */
        private final long salt;
        /** Entries in the order added; the building thread. */
        private byte[] buf = new byte[1 << 16];
        /** Bytes of {@code buf} used; the building thread. */
        private int len = HEADER_SIZE;
        /** Entries added; the building thread. */
        private int count;
        /** Hash and index of each entry, sorted at the end; the building thread. */
        private long[] order = new long[1024];
        /** Where each entry starts in {@code buf}; the building thread. */
        private int[] starts = new int[1024];

        /** Starts a hint file for the data file of {@code segmentId} with {@code salt}. */
        public Builder(long segmentId, long salt) {
            this.segmentId = segmentId;
            this.salt = salt;
        }

        /** Adds the record at {@code offset} whose bytes start at {@code record[off]}. */
        public void add(long offset, byte[] record, int off, int recordLength) {
            int flags = RecordFormat.flags(record, off) & (RecordFormat.TOMBSTONE | RecordFormat.EXPIRES);
            int keyLength = RecordFormat.keyLength(record, off);
            ensure(ENTRY_SIZE + keyLength);
            RecordFormat.putInt(buf, len + ENTRY_OFFSET, (int) offset);
            RecordFormat.putInt(buf, len + ENTRY_LENGTH, recordLength);
            RecordFormat.putShort(buf, len + ENTRY_FLAGS, flags);
            RecordFormat.putShort(buf, len + ENTRY_KEY_LENGTH, keyLength);
            RecordFormat.putLong(buf, len + ENTRY_EXPIRES, RecordFormat.expiresAt(record, off));
            int keyOff = off + RecordFormat.keyOffset(flags);
            System.arraycopy(record, keyOff, buf, len + ENTRY_SIZE, keyLength);
            if (count == order.length) {
                order = Arrays.copyOf(order, count * 2);
                starts = Arrays.copyOf(starts, count * 2);
            }
            int hash = KeyHash.hash(record, keyOff, keyLength);
            order[count] = ((long) hash << 32) | count; // signed: see the class comment
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
                int size = ENTRY_SIZE + RecordFormat.getUnsignedShort(buf, start + ENTRY_KEY_LENGTH);
                System.arraycopy(buf, start, out, p, size);
                p += size;
            }
            RecordFormat.putInt(out, MAGIC_OFFSET, MAGIC);
            RecordFormat.putShort(out, VERSION_OFFSET, RecordFormat.VERSION);
            RecordFormat.putShort(out, RESERVED_OFFSET, 0);
            RecordFormat.putLong(out, ID_OFFSET, segmentId);
            RecordFormat.putLong(out, SALT_OFFSET, salt);
            RecordFormat.putLong(out, COVERED_OFFSET, coveredLength);
            RecordFormat.putInt(out, len + FOOTER_COUNT, count);
            RecordFormat.putInt(out, len + FOOTER_CRC, RecordFormat.crc(out, 0, len + FOOTER_CRC));
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
     * What {@link #validate} found.
     *
     * @param covered the data offset up to which the hint lists every record, or -1 when unusable
     * @param entries the number of entries, 0 when unusable
     * @param reason  why the hint is unusable, or null
     */
    public record Validation(long covered, int entries, String reason) {

        static Validation unusable(String reason) {
            return new Validation(-1, 0, reason);
        }

        /** True when the hint can be applied. */
        public boolean usable() {
            return covered >= 0;
        }
    }

    /**
     * Checks a hint file completely: CRC, header, that it belongs to the data file with
     * {@code segmentId} and {@code salt}, and that every entry lies within the covered part of
     * that data file of {@code dataLength} bytes. Limits are the format's, not a store's options.
     */
    public static Validation validate(byte[] hint, long segmentId, long salt, long dataLength) {
        return validate(new HintReader(hint, true), segmentId, salt, dataLength);
    }

    /**
     * The same, reading the file once front to back through {@code hint}, which must keep a CRC and not
     * have loaded anything yet. A file whose CRC does not match is refused for that reason, whatever
     * else is wrong with it.
     */
    public static Validation validate(HintReader hint, long segmentId, long salt, long dataLength) {
        long size = hint.size();
        if (size < HEADER_SIZE + FOOTER_SIZE) {
            return Validation.unusable("too short");
        }
        Validation content = content(hint, segmentId, salt, dataLength);
        if (!hint.crcMatches()) {
            return Validation.unusable("CRC mismatch");
        }
        return content;
    }

    /** The checks of {@link #validate} but the CRC, in file order, stopping at the first that fails. */
    private static Validation content(HintReader hint, long segmentId, long salt, long dataLength) {
        int h = hint.load(0, HEADER_SIZE);
        byte[] w = hint.window();
        if (RecordFormat.getInt(w, h + MAGIC_OFFSET) != MAGIC || RecordFormat.getUnsignedShort(w, h + VERSION_OFFSET) != RecordFormat.VERSION
                || RecordFormat.getLong(w, h + ID_OFFSET) != segmentId || RecordFormat.getLong(w, h + SALT_OFFSET) != salt) {
            return Validation.unusable("header does not belong to this data file");
        }
        long covered = RecordFormat.getLong(w, h + COVERED_OFFSET);
        if (covered < RecordFormat.FILE_HEADER_SIZE || covered > dataLength) {
            return Validation.unusable("covers " + covered + " bytes but the data file has " + dataLength);
        }
        long body = hint.size() - FOOTER_SIZE;
        int count = 0;
        long p = HEADER_SIZE;
        long previousHash = Long.MIN_VALUE;
        long previousOffset = -1;
        while (p < body) {
            if (p + ENTRY_SIZE > body) {
                return Validation.unusable("truncated entry at " + p);
            }
            int e = hint.load(p, ENTRY_SIZE);
            w = hint.window();
            long offset = Integer.toUnsignedLong(RecordFormat.getInt(w, e + ENTRY_OFFSET));
            long recordLength = Integer.toUnsignedLong(RecordFormat.getInt(w, e + ENTRY_LENGTH));
            int flags = RecordFormat.getUnsignedShort(w, e + ENTRY_FLAGS);
            int keyLength = RecordFormat.getUnsignedShort(w, e + ENTRY_KEY_LENGTH);
            int expected = RecordFormat.keyOffset(flags) + keyLength;
            if (keyLength == 0 || (flags & ~(RecordFormat.TOMBSTONE | RecordFormat.EXPIRES)) != 0
                    || recordLength < expected || recordLength > RecordFormat.MAX_RECORD_LENGTH
                    || ((flags & RecordFormat.TOMBSTONE) != 0 && recordLength != expected)
                    || offset < RecordFormat.FILE_HEADER_SIZE || offset + recordLength > covered
                    || p + ENTRY_SIZE + keyLength > body) {
                return Validation.unusable("bad entry at " + p);
            }
            e = hint.load(p, ENTRY_SIZE + keyLength);
            int hash = KeyHash.hash(hint.window(), e + ENTRY_SIZE, keyLength);
            if (hash < previousHash || (hash == previousHash && offset <= previousOffset)) {
                return Validation.unusable("entry at " + p + " is out of hash order");
            }
            previousHash = hash;
            previousOffset = offset;
            p += ENTRY_SIZE + keyLength;
            count++;
        }
        int f = hint.load(body, Integer.BYTES);
        if (count != RecordFormat.getInt(hint.window(), f + FOOTER_COUNT)) {
            return Validation.unusable("entry count mismatch");
        }
        return new Validation(covered, count, null);
    }

    /**
     * True when the entry that starts at {@code hint[entry]} lists the record {@code record[off, off + length)}:
     * the same length, flags, expiry and key. The record's offset is the caller's to compare.
     */
    public static boolean lists(byte[] hint, int entry, byte[] record, int off, int length) {
        int flags = RecordFormat.flags(record, off) & (RecordFormat.TOMBSTONE | RecordFormat.EXPIRES);
        int keyLength = RecordFormat.keyLength(record, off);
        int keyOff = off + RecordFormat.keyOffset(flags);
        return RecordFormat.getInt(hint, entry + ENTRY_LENGTH) == length
                && RecordFormat.getUnsignedShort(hint, entry + ENTRY_FLAGS) == flags
                && RecordFormat.getUnsignedShort(hint, entry + ENTRY_KEY_LENGTH) == keyLength
                && RecordFormat.getLong(hint, entry + ENTRY_EXPIRES) == RecordFormat.expiresAt(record, off)
                && Arrays.equals(hint, entry + ENTRY_SIZE, entry + ENTRY_SIZE + keyLength, record, keyOff, keyOff + keyLength);
    }

    /** Visits the entries of a hint file that {@link #validate} accepted. */
    public static void forEach(byte[] hint, EntryVisitor visitor) {
        int body = hint.length - FOOTER_SIZE;
        for (int p = HEADER_SIZE; p < body; ) {
            int keyLength = RecordFormat.getUnsignedShort(hint, p + ENTRY_KEY_LENGTH);
            visitor.entry(Integer.toUnsignedLong(RecordFormat.getInt(hint, p + ENTRY_OFFSET)), RecordFormat.getInt(hint, p + ENTRY_LENGTH),
                    RecordFormat.getUnsignedShort(hint, p + ENTRY_FLAGS), RecordFormat.getLong(hint, p + ENTRY_EXPIRES),
                    hint, p + ENTRY_SIZE, keyLength);
            p += ENTRY_SIZE + keyLength;
        }
    }
}
