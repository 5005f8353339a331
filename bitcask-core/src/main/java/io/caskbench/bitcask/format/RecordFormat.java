package io.caskbench.bitcask.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Threading: static helpers on caller-owned arrays, safe everywhere.
 *
 * <p>The binary layout of a segment file and of the records in it. Every offset and flag of the data
 * files is defined here and nowhere else.
 *
 * <pre>
 * segment file = FILE_HEADER, record, record, ...   (a zero-filled tail is unused space)
 *
 * FILE_HEADER (64 bytes): the same 32-byte block twice, so one damaged byte cannot lose the salt
 *   0  magic      int    'BCSK'
 *   4  version    short
 *   6  reserved   short
 *   8  segmentId  long
 *  16  salt       long   random per file; binds every record to this file
 *  24  reserved   int
 *  28  crc32c     int    of bytes 0..27 of the block
 *
 * record
 *   0  check      int    CRC32C of every byte after this field, XOR mix(salt, offset of the record)
 *   4  timestamp  long   epoch millis of the write
 *  12  keyLength  short  unsigned, 1..65535
 *  14  flags      short  TOMBSTONE | EXPIRES | BATCH | IN_BATCH
 *  16  valueLen   int    0.. ; 0 for a tombstone
 *  20  expiresAt  long   epoch millis, present only when EXPIRES is set
 *   .. key bytes, then value bytes
 * </pre>
 *
 * <p>All multi-byte fields are little-endian. A tombstone is marked by its flag, never by an
 * empty value: empty values are legal and distinct from absent.
 *
 * <p>The check field binds a record to the file and offset it was written at: the same bytes
 * anywhere else (inside a user's value after a torn write, in another file, or copied by a merge
 * without re-sealing) fail the check, except by a 1 in 2^32 chance. The CRC itself is computed
 * before the offset is known, so a writer can checksum outside its lock and {@link #seal} under it.
 *
 * <p>A record with the {@link #BATCH} flag opens an atomic batch; its value holds the byte length
 * of the member records that follow it and their CRC (see {@link #batchSpan}). Members carry
 * {@link #IN_BATCH} and are never accepted on their own, so recovery applies all of them or none,
 * whatever is damaged.
 */
public final class RecordFormat {

    /** {@code 'BCSK'} in little-endian order. */
    public static final int MAGIC = 0x4B534342;
    /** Format version written into every file header; files of any other version are refused. */
    public static final short VERSION = 2;
    /** Size of one copy of the file header. */
    public static final int HEADER_BLOCK_SIZE = 32;
    /** Size of the segment file header: two copies of the header block. */
    public static final int FILE_HEADER_SIZE = 2 * HEADER_BLOCK_SIZE;
    /** Offset of the version field in a header block. */
    public static final int HEADER_VERSION_OFFSET = 4;
    /** Offset of the segment id field in a header block. */
    public static final int HEADER_ID_OFFSET = 8;
    /** Offset of the salt field in a header block. */
    public static final int HEADER_SALT_OFFSET = 16;
    /** Offset of the first reserved field (a short, zero) in a header block. */
    public static final int HEADER_RESERVED_OFFSET = 6;
    /** Offset of the second reserved field (an int, zero) in a header block. */
    public static final int HEADER_RESERVED2_OFFSET = 24;
    /** Offset of the CRC field in a header block. */
    public static final int HEADER_CRC_OFFSET = 28;

    /** Offset of the check field. */
    public static final int CRC_OFFSET = 0;
    /** Offset of the timestamp field. */
    public static final int TIMESTAMP_OFFSET = 4;
    /** Offset of the key length field. */
    public static final int KEY_LENGTH_OFFSET = 12;
    /** Offset of the flags field. */
    public static final int FLAGS_OFFSET = 14;
    /** Offset of the value length field. */
    public static final int VALUE_LENGTH_OFFSET = 16;
    /** Size of the fixed part of a record header. */
    public static final int HEADER_SIZE = 20;
    /** Size of the optional expiry field. */
    public static final int EXPIRY_SIZE = 8;

    /** The record deletes its key. */
    public static final int TOMBSTONE = 1;
    /** The record carries an {@code expiresAt} field. */
    public static final int EXPIRES = 1 << 1;
    /** The record opens an atomic batch; its members follow it. */
    public static final int BATCH = 1 << 2;
    /** The record is a member of a batch and valid only as part of it. */
    public static final int IN_BATCH = 1 << 3;
    /** Every flag this version understands; a record with any other bit set is corrupt. */
    public static final int KNOWN_FLAGS = TOMBSTONE | EXPIRES | BATCH | IN_BATCH;

    /** Largest key length the layout can express. */
    public static final int MAX_KEY_LENGTH = 0xFFFF;
    /** Size of the value of a {@link #BATCH} record: member count, span length, span CRC. */
    public static final int BATCH_VALUE_SIZE = 12;
    /** Offset of the member count in a batch header. */
    public static final int BATCH_COUNT_OFFSET = HEADER_SIZE;
    /** Offset of the members' byte length in a batch header. */
    public static final int BATCH_SPAN_OFFSET = HEADER_SIZE + 4;
    /** Offset of the members' CRC in a batch header. */
    public static final int BATCH_CRC_OFFSET = HEADER_SIZE + 8;
    /** Size of a whole batch header record. */
    public static final int BATCH_HEADER_SIZE = HEADER_SIZE + BATCH_VALUE_SIZE;
    /** Largest record length the layout can express: what one segment (one mapping) can hold. */
    public static final int MAX_RECORD_LENGTH = Integer.MAX_VALUE - FILE_HEADER_SIZE;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

    private RecordFormat() {
    }

    /** Offset of the key within a record with these flags. */
    public static int keyOffset(int flags) {
        return (flags & EXPIRES) != 0 ? HEADER_SIZE + EXPIRY_SIZE : HEADER_SIZE;
    }

    /** Total length of a record. */
    public static int recordLength(int flags, int keyLength, int valueLength) {
        return keyOffset(flags) + keyLength + valueLength;
    }

    /**
     * Encodes a whole record into {@code dst} at {@code off}, with its plain CRC in the check
     * field; {@link #seal} binds it to its place before it is written.
     *
     * @return the record length
     */
    public static int encode(byte[] dst, int off, long timestamp, int flags, long expiresAt,
                             byte[] key, byte[] value) {
        int valueLength = value == null ? 0 : value.length;
        LONG.set(dst, off + TIMESTAMP_OFFSET, timestamp);
        SHORT.set(dst, off + KEY_LENGTH_OFFSET, (short) key.length);
        SHORT.set(dst, off + FLAGS_OFFSET, (short) flags);
        INT.set(dst, off + VALUE_LENGTH_OFFSET, valueLength);
        if ((flags & EXPIRES) != 0) {
            LONG.set(dst, off + HEADER_SIZE, expiresAt);
        }
        int keyOff = off + keyOffset(flags);
        System.arraycopy(key, 0, dst, keyOff, key.length);
        if (valueLength > 0) {
            System.arraycopy(value, 0, dst, keyOff + key.length, valueLength);
        }
        int length = recordLength(flags, key.length, valueLength);
        INT.set(dst, off + CRC_OFFSET, crc(dst, off + TIMESTAMP_OFFSET, length - TIMESTAMP_OFFSET));
        return length;
    }

    /** Writes the segment file header: both copies of the block. */
    public static void encodeFileHeader(byte[] dst, long segmentId, long salt) {
        for (int at = 0; at < FILE_HEADER_SIZE; at += HEADER_BLOCK_SIZE) {
            INT.set(dst, at, MAGIC);
            SHORT.set(dst, at + HEADER_VERSION_OFFSET, VERSION);
            SHORT.set(dst, at + HEADER_RESERVED_OFFSET, (short) 0);
            LONG.set(dst, at + HEADER_ID_OFFSET, segmentId);
            LONG.set(dst, at + HEADER_SALT_OFFSET, salt);
            INT.set(dst, at + HEADER_RESERVED2_OFFSET, 0);
            INT.set(dst, at + HEADER_CRC_OFFSET, crc(dst, at, HEADER_CRC_OFFSET));
        }
    }

    /**
     * Offset of the first intact header block in {@code header} (which holds at least
     * {@link #FILE_HEADER_SIZE} bytes), or -1 when neither copy is intact. An intact block has
     * this format's magic and a matching CRC; its version is not checked here.
     */
    public static int intactHeaderBlock(byte[] header) {
        for (int at = 0; at < FILE_HEADER_SIZE; at += HEADER_BLOCK_SIZE) {
            if ((int) INT.get(header, at) == MAGIC
                    && (int) INT.get(header, at + HEADER_CRC_OFFSET) == crc(header, at, HEADER_CRC_OFFSET)) {
                return at;
            }
        }
        return -1;
    }

    /** Version field of the header block at {@code at}. */
    public static int headerVersion(byte[] header, int at) {
        return Short.toUnsignedInt((short) SHORT.get(header, at + HEADER_VERSION_OFFSET));
    }

    /** Segment id field of the header block at {@code at}. */
    public static long headerSegmentId(byte[] header, int at) {
        return (long) LONG.get(header, at + HEADER_ID_OFFSET);
    }

    /** Salt field of the header block at {@code at}. */
    public static long headerSalt(byte[] header, int at) {
        return (long) LONG.get(header, at + HEADER_SALT_OFFSET);
    }

    /**
     * True when the first bytes look like a header of the first format version, which had no salt
     * and no header CRC: magic, then version 1.
     */
    public static boolean isVersionOneHeader(byte[] header) {
        return (int) INT.get(header, 0) == MAGIC && (short) SHORT.get(header, HEADER_VERSION_OFFSET) == 1;
    }

    /**
     * The value XOR-ed into a record's CRC to bind it to its file and offset: a strong mix of both,
     * so that two offsets of one file, or one offset of two files, agree only by chance.
     */
    public static int mix(long salt, long offset) {
        long z = salt + offset * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (int) (z ^ (z >>> 32));
    }

    /** Binds an encoded record (whose check field holds its plain CRC) to the file and offset it is written at. */
    public static void seal(byte[] b, int off, long salt, long offset) {
        INT.set(b, off + CRC_OFFSET, (int) INT.get(b, off + CRC_OFFSET) ^ mix(salt, offset));
    }

    /**
     * Re-encodes the check field of a valid record for a new place: clears {@link #IN_BATCH}
     * (a copied batch member stands alone) and binds the record to {@code salt} and {@code offset}.
     */
    public static void reseal(byte[] b, int off, int length, long salt, long offset) {
        SHORT.set(b, off + FLAGS_OFFSET, (short) (flags(b, off) & ~IN_BATCH));
        INT.set(b, off + CRC_OFFSET, crc(b, off + TIMESTAMP_OFFSET, length - TIMESTAMP_OFFSET) ^ mix(salt, offset));
    }

    /** CRC32C of a byte range (the JDK compiles this to the hardware instruction). */
    public static int crc(byte[] b, int off, int len) {
        CRC32C c = CRC.get();
        c.reset();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    /**
     * True when the record starting at {@code b[off]}, of total length {@code length}, has a valid
     * check for a file with {@code salt} at file offset {@code offset}.
     */
    public static boolean crcMatches(byte[] b, int off, int length, long salt, long offset) {
        return (storedCrc(b, off) ^ mix(salt, offset)) == crc(b, off + TIMESTAMP_OFFSET, length - TIMESTAMP_OFFSET);
    }

    /** Stored CRC of the record at {@code off}. */
    public static int storedCrc(byte[] b, int off) {
        return (int) INT.get(b, off + CRC_OFFSET);
    }

    /** Timestamp of the record at {@code off}. */
    public static long timestamp(byte[] b, int off) {
        return (long) LONG.get(b, off + TIMESTAMP_OFFSET);
    }

    /** Key length of the record at {@code off}. */
    public static int keyLength(byte[] b, int off) {
        return Short.toUnsignedInt((short) SHORT.get(b, off + KEY_LENGTH_OFFSET));
    }

    /** Flags of the record at {@code off}. */
    public static int flags(byte[] b, int off) {
        return Short.toUnsignedInt((short) SHORT.get(b, off + FLAGS_OFFSET));
    }

    /** Value length of the record at {@code off}. */
    public static int valueLength(byte[] b, int off) {
        return (int) INT.get(b, off + VALUE_LENGTH_OFFSET);
    }

    /** Expiry of the record at {@code off}, or 0 when it never expires. */
    public static long expiresAt(byte[] b, int off) {
        return (flags(b, off) & EXPIRES) != 0 ? (long) LONG.get(b, off + HEADER_SIZE) : 0L;
    }

    /**
     * Checks that a header is plausible before its length is trusted: known flags, a non-empty
     * key, a length the format can hold, and a tombstone or batch marker of the right shape. The
     * limits are the format's, not a store's options: a store reopened with smaller limits still
     * reads every record an earlier one wrote.
     *
     * @param member true for a record inside a batch span, which must carry {@link #IN_BATCH};
     *               false for one on its own, which must not
     * @return the record length, or -1 when the header cannot be a record
     */
    public static int plausibleLength(byte[] b, int off, boolean member) {
        int flags = flags(b, off);
        int keyLength = keyLength(b, off);
        int valueLength = valueLength(b, off);
        if ((flags & ~KNOWN_FLAGS) != 0 || valueLength < 0 || ((flags & IN_BATCH) != 0) != member) {
            return -1;
        }
        if ((flags & BATCH) != 0) {
            if (flags != BATCH || keyLength != 0 || valueLength != BATCH_VALUE_SIZE) {
                return -1;
            }
        } else if (keyLength == 0 || ((flags & TOMBSTONE) != 0 && valueLength != 0)) {
            return -1;
        }
        long length = (long) keyOffset(flags) + keyLength + valueLength;
        return length > MAX_RECORD_LENGTH ? -1 : (int) length;
    }

    /** Reads a little-endian int. */
    public static int getInt(byte[] b, int off) {
        return (int) INT.get(b, off);
    }

    /** Writes a little-endian int. */
    public static void putInt(byte[] b, int off, int v) {
        INT.set(b, off, v);
    }

    /** Reads a little-endian long. */
    public static long getLong(byte[] b, int off) {
        return (long) LONG.get(b, off);
    }

    /** Writes a little-endian long. */
    public static void putLong(byte[] b, int off, long v) {
        LONG.set(b, off, v);
    }

    /** Reads a little-endian unsigned short. */
    public static int getUnsignedShort(byte[] b, int off) {
        return Short.toUnsignedInt((short) SHORT.get(b, off));
    }

    /** Writes a little-endian short. */
    public static void putShort(byte[] b, int off, int v) {
        SHORT.set(b, off, (short) v);
    }

    /**
     * Encodes the header record of an atomic batch, with its plain CRC (see {@link #seal}). Its
     * value holds the member count, the byte length of the members that follow and their CRC32C,
     * so a torn batch is detected whole.
     *
     * @return the record length
     */
    public static int encodeBatchHeader(byte[] dst, int off, long timestamp, int count, int spanLength, int spanCrc) {
        LONG.set(dst, off + TIMESTAMP_OFFSET, timestamp);
        SHORT.set(dst, off + KEY_LENGTH_OFFSET, (short) 0);
        SHORT.set(dst, off + FLAGS_OFFSET, (short) BATCH);
        INT.set(dst, off + VALUE_LENGTH_OFFSET, BATCH_VALUE_SIZE);
        INT.set(dst, off + BATCH_COUNT_OFFSET, count);
        INT.set(dst, off + BATCH_SPAN_OFFSET, spanLength);
        INT.set(dst, off + BATCH_CRC_OFFSET, spanCrc);
        int length = HEADER_SIZE + BATCH_VALUE_SIZE;
        INT.set(dst, off + CRC_OFFSET, crc(dst, off + TIMESTAMP_OFFSET, length - TIMESTAMP_OFFSET));
        return length;
    }

    /** Byte length of the members of the batch whose header record is at {@code off}. */
    public static int batchSpan(byte[] b, int off) {
        return (int) INT.get(b, off + BATCH_SPAN_OFFSET);
    }

    /** Member count of the batch whose header record is at {@code off}. */
    public static int batchCount(byte[] b, int off) {
        return (int) INT.get(b, off + BATCH_COUNT_OFFSET);
    }

    /** CRC32C of the members of the batch whose header record is at {@code off}. */
    public static int batchCrc(byte[] b, int off) {
        return (int) INT.get(b, off + BATCH_CRC_OFFSET);
    }
}
