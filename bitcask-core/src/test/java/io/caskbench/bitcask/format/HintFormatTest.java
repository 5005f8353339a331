package io.caskbench.bitcask.format;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hint files' layout, pinned to exact bytes: a hint of a put and a put with a time to live,
 * encoded from fixed inputs and compared with bytes written out here by hand, field by field.
 * Entries are sorted by key hash as a signed int, so the "ttl" entry (hash 1,442,422,454) comes
 * before the "key" entry (hash 1,746,395,457).
 */
class HintFormatTest {

    private static final long SALT = 0x0123456789ABCDEFL;
    private static final long TIMESTAMP = 1_700_000_000_000L;

    @Test
    void aHintIsItsHeaderItsEntriesInHashOrderAndItsFooter() {
        byte[] put = new byte[64];
        int putLength = RecordFormat.encode(put, 0, TIMESTAMP, 0, 0L, ascii("key"), ascii("value"));
        byte[] ttl = new byte[64];
        int ttlLength = RecordFormat.encode(ttl, 0, TIMESTAMP, RecordFormat.EXPIRES, TIMESTAMP + 60_000, ascii("ttl"),
                ascii("v"));
        HintFormat.Builder b = new HintFormat.Builder(7, SALT);
        b.add(64, put, 0, putLength);
        b.add(64 + putLength, ttl, 0, ttlLength);

        byte[] hint = b.finish(64 + putLength + ttlLength);

        byte[] expected = HexFormat.of().parseHex(("42434854"  // magic 'BCHT'
                + " 0200 0000"                              // version 2, reserved
                + " 0700000000000000"                       // segment id 7
                + " efcdab8967452301"                       // the data file's salt
                + " 7c00000000000000"                       // covered length 124
                + " 5c000000 20000000 0200 0300 6052e6cf8b010000 74746c" // "ttl" at 92, 32 bytes, EXPIRES
                + " 40000000 1c000000 0000 0300 0000000000000000 6b6579" // "key" at 64, 28 bytes
                + " 02000000"                               // entry count
                + " aa413925").replace(" ", ""));           // CRC32C of every byte before it
        assertThat(hint).isEqualTo(expected);
        assertThat(KeyHash.hash(ascii("ttl"), 0, 3)).isEqualTo(1_442_422_454);
        assertThat(KeyHash.hash(ascii("key"), 0, 3)).isEqualTo(1_746_395_457);
        assertThat(HintFormat.validate(hint, 7, SALT, 124).usable()).isTrue();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
