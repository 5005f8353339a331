package io.caskbench.bitcask.format;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data files' layout, pinned to exact bytes: a put, a put with a time to live, a tombstone and
 * the file header's two copies, each encoded from fixed inputs and compared with bytes written out
 * here by hand (and checked field by field against the layout in {@link RecordFormat}'s comment).
 * Every store on disk is in this format: a change to any constant, field order, flag value or the
 * check's mix must fail here, not strand the stores people already have.
 */
class RecordFormatTest {

    private static final long SALT = 0x0123456789ABCDEFL;
    private static final long TIMESTAMP = 1_700_000_000_000L;
    private static final byte[] KEY = "key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VALUE = "value".getBytes(StandardCharsets.US_ASCII);

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static byte[] encode(int flags, long expiresAt, byte[] value, long offset) {
        byte[] buf = new byte[RecordFormat.recordLength(flags, KEY.length, value == null ? 0 : value.length)];
        RecordFormat.encode(buf, 0, TIMESTAMP, flags, expiresAt, KEY, value);
        RecordFormat.seal(buf, 0, SALT, offset);
        return buf;
    }

    /** The check field: CRC32C of every byte after it, XOR the mix of the file's salt and the record's offset. */
    private static int check(byte[] record, int mix) {
        CRC32C crc = new CRC32C();
        crc.update(record, 4, record.length - 4);
        return (int) crc.getValue() ^ mix;
    }

    private static int storedCheck(byte[] record) {
        return ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    @Test
    void aPutIsItsHeaderThenItsKeyThenItsValue() {
        byte[] expected = hex("35381803"      // check
                + " 0068e5cf8b010000"          // timestamp 1,700,000,000,000 ms
                + " 0300"                      // key length 3
                + " 0000"                      // flags: none
                + " 05000000"                  // value length 5
                + " 6b6579"                    // "key"
                + " 76616c7565");              // "value"
        byte[] record = encode(0, 0L, VALUE, 64);

        assertThat(record).isEqualTo(expected);
        assertThat(storedCheck(record)).isEqualTo(check(record, 0x69ae0f2d));
        assertThat(RecordFormat.crcMatches(record, 0, record.length, SALT, 64)).isTrue();
        assertThat(RecordFormat.crcMatches(record, 0, record.length, SALT, 65)).as("bound to its offset").isFalse();
        assertThat(RecordFormat.crcMatches(record, 0, record.length, SALT + 1, 64)).as("bound to its file").isFalse();
    }

    @Test
    void aPutWithATimeToLiveCarriesItsExpiryBeforeTheKey() {
        byte[] expected = hex("b9de60b4"
                + " 0068e5cf8b010000"          // timestamp
                + " 0300"                      // key length 3
                + " 0200"                      // flags: EXPIRES
                + " 05000000"                  // value length 5
                + " 6052e6cf8b010000"          // expires at 1,700,000,060,000 ms
                + " 6b6579 76616c7565");

        assertThat(encode(RecordFormat.EXPIRES, TIMESTAMP + 60_000, VALUE, 96)).isEqualTo(expected);
    }

    @Test
    void aTombstoneIsMarkedByItsFlagAndHasNoValue() {
        byte[] expected = hex("3b45f603"
                + " 0068e5cf8b010000"
                + " 0300"                      // key length 3
                + " 0100"                      // flags: TOMBSTONE
                + " 00000000"                  // value length 0
                + " 6b6579");

        assertThat(encode(RecordFormat.TOMBSTONE, 0L, null, 128)).isEqualTo(expected);
    }

    @Test
    void theFileHeaderIsOneBlockWrittenTwice() {
        String block = "4243534b"                  // magic 'BCSK'
                + " 0200"                          // version 2
                + " 0000"                          // reserved
                + " 0700000000000000"              // segment id 7
                + " efcdab8967452301"              // salt
                + " 00000000"                      // reserved
                + " 650dd004";                     // CRC32C of the 28 bytes before it
        byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
        RecordFormat.encodeFileHeader(header, 7, SALT);

        assertThat(header).isEqualTo(hex(block + block));
        CRC32C crc = new CRC32C();
        crc.update(header, 0, 28);
        assertThat(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(28)).isEqualTo((int) crc.getValue());
        assertThat(RecordFormat.intactHeaderBlock(header)).isZero();
        header[3] ^= 1; // a damaged first copy: the second one serves
        assertThat(RecordFormat.intactHeaderBlock(header)).isEqualTo(RecordFormat.HEADER_BLOCK_SIZE);
    }

    @Test
    void theFlagsAndTheVersionHaveTheirPublishedValues() {
        assertThat(new int[] {RecordFormat.TOMBSTONE, RecordFormat.EXPIRES, RecordFormat.BATCH, RecordFormat.IN_BATCH})
                .containsExactly(1, 2, 4, 8);
        assertThat(RecordFormat.VERSION).isEqualTo((short) 2);
        assertThat(RecordFormat.MAGIC).isEqualTo(0x4B534342);
    }
}
