package io.caskbench.bitcask.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The binary layout of a segment file and of the records in it. Every offset and flag of the data
 * files is defined here and nowhere else.
 *
 * <pre>
 * segment file = FILE_HEADER, record, record, ...   (a zero-filled tail is unused space)
 *
 * FILE_HEADER (16 bytes)
 *   0  magic      int   'BCSK'
 *   4  version    short
 *   6  reserved   short
 *   8  segmentId  long
 *
 * record
 *   0  crc32c     int    CRC32C of every byte after this field, to the end of the record
 *   4  timestamp  long   epoch millis of the write
 *  12  keyLength  short  unsigned, 1..65535
 *  14  flags      short  TOMBSTONE | EXPIRES | BATCH
 *  16  valueLen   int    0.. ; 0 for a tombstone
 *  20  expiresAt  long   epoch millis, present only when EXPIRES is set
 *   .. key bytes, then value bytes
 * </pre>
 *
 * <p>All multi-byte fields are little-endian. A tombstone is marked by its flag, never by an
 * empty value: empty values are legal and distinct from absent. A record with the {@link #BATCH}
 * flag opens an atomic batch; its value holds the byte length of the member records that follow
 * it and their CRC (see {@link #batchSpan}), so recovery applies either all members or none.
 */
public final class RecordFormat {

    /** {@code 'BCSK'} in little-endian order. */
    public static final int MAGIC = 0x4B534342;
    /** Format version written into every file header. */
    public static final short VERSION = 1;
    /** Size of the segment file header. */
    public static final int FILE_HEADER_SIZE = 16;

    /** Offset of the CRC field. */
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
    /** Every flag this version understands; a record with any other bit set is corrupt. */
    public static final int KNOWN_FLAGS = TOMBSTONE | EXPIRES | BATCH;

    /** Largest key length the layout can express. */
    public static final int MAX_KEY_LENGTH = 0xFFFF;
    /** Size of the value of a {@link #BATCH} record: member count, span length, span CRC. */
    public static final int BATCH_VALUE_SIZE = 12;

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
     * Encodes a whole record into {@code dst} at {@code off}, CRC included.
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
        INT.set(dst, off + CRC_OFFSET, crc(dst, off + 4, length - 4));
        return length;
    }

    /** Writes the segment file header. */
    public static void encodeFileHeader(byte[] dst, long segmentId) {
        INT.set(dst, 0, MAGIC);
        SHORT.set(dst, 4, VERSION);
        SHORT.set(dst, 6, (short) 0);
        LONG.set(dst, 8, segmentId);
    }

    /** True when {@code header} is a file header of this format for {@code segmentId}. */
    public static boolean isFileHeader(byte[] header, long segmentId) {
        return (int) INT.get(header, 0) == MAGIC && (short) SHORT.get(header, 4) == VERSION
                && (long) LONG.get(header, 8) == segmentId;
    }

    /** CRC32C of a byte range (the JDK compiles this to the hardware instruction). */
    public static int crc(byte[] b, int off, int len) {
        CRC32C c = CRC.get();
        c.reset();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    /** True when the record starting at {@code off} with total length {@code length} has a valid CRC. */
    public static boolean crcMatches(byte[] b, int off, int length) {
        return storedCrc(b, off) == crc(b, off + 4, length - 4);
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
     * key within {@code maxKey}, a value within {@code maxValue}, and a tombstone or batch
     * marker of the right shape.
     *
     * @return the record length, or -1 when the header cannot be a record
     */
    public static int plausibleLength(byte[] b, int off, int maxKey, int maxValue) {
        int flags = flags(b, off);
        int keyLength = keyLength(b, off);
        int valueLength = valueLength(b, off);
        if ((flags & ~KNOWN_FLAGS) != 0 || valueLength < 0 || valueLength > maxValue) {
            return -1;
        }
        if ((flags & BATCH) != 0) {
            if (flags != BATCH || keyLength != 0 || valueLength != BATCH_VALUE_SIZE) {
                return -1;
            }
        } else if (keyLength == 0 || keyLength > maxKey || ((flags & TOMBSTONE) != 0 && valueLength != 0)) {
            return -1;
        }
        return recordLength(flags, keyLength, valueLength);
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
     * Encodes the header record of an atomic batch. Its value holds the member count, the byte
     * length of the members that follow and their CRC32C, so a torn batch is detected whole.
     *
     * @return the record length
     */
    public static int encodeBatchHeader(byte[] dst, int off, long timestamp, int count, int spanLength, int spanCrc) {
        LONG.set(dst, off + TIMESTAMP_OFFSET, timestamp);
        SHORT.set(dst, off + KEY_LENGTH_OFFSET, (short) 0);
        SHORT.set(dst, off + FLAGS_OFFSET, (short) BATCH);
        INT.set(dst, off + VALUE_LENGTH_OFFSET, BATCH_VALUE_SIZE);
        INT.set(dst, off + HEADER_SIZE, count);
        INT.set(dst, off + HEADER_SIZE + 4, spanLength);
        INT.set(dst, off + HEADER_SIZE + 8, spanCrc);
        int length = HEADER_SIZE + BATCH_VALUE_SIZE;
        INT.set(dst, off + CRC_OFFSET, crc(dst, off + 4, length - 4));
        return length;
    }

    /** Byte length of the members of the batch whose header record is at {@code off}. */
    public static int batchSpan(byte[] b, int off) {
        return (int) INT.get(b, off + HEADER_SIZE + 4);
    }

    /** Member count of the batch whose header record is at {@code off}. */
    public static int batchCount(byte[] b, int off) {
        return (int) INT.get(b, off + HEADER_SIZE);
    }

    /** CRC32C of the members of the batch whose header record is at {@code off}. */
    public static int batchCrc(byte[] b, int off) {
        return (int) INT.get(b, off + HEADER_SIZE + 8);
    }
}
