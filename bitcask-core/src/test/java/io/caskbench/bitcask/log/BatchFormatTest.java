package io.caskbench.bitcask.log;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.segment.Segment;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch as it lands in a data file, pinned to exact bytes: its header record (flag BATCH, a 12-byte
 * value of member count, members' length and members' CRC), then each member flagged IN_BATCH and
 * sealed to its own offset. Encoded by the log writer's own batch encoder from fixed inputs.
 */
class BatchFormatTest {

    private static final long SALT = 0x0123456789ABCDEFL;

    @Test
    void aBatchIsAHeaderRecordThenItsSealedMembers() {
        Segment seg = new Segment(7, SALT, 0, Path.of("000000007.data"), null, null, RecordFormat.FILE_HEADER_SIZE);
        LogWriter.Batch ops = new LogWriter.Batch() {
            @Override
            public int size() {
                return 2;
            }

            @Override
            public byte[] key(int i) {
                return (i == 0 ? "a" : "b").getBytes(StandardCharsets.US_ASCII);
            }

            @Override
            public byte[] value(int i) {
                return i == 0 ? "1".getBytes(StandardCharsets.US_ASCII) : null;
            }

            @Override
            public long ttlMillis(int i) {
                return 0;
            }
        };
        byte[] buf = new byte[75];

        BatchAppend.encode(ops, buf.length, buf, seg, 64, 1_700_000_000_000L);

        byte[] expected = HexFormat.of().parseHex(("2272bd07 0068e5cf8b010000 0000 0400 0c000000" // header: BATCH, 12-byte value
                + " 02000000 2b000000 7104e8e1"                             // 2 members, 43 bytes, their CRC
                + " 0511700f 0068e5cf8b010000 0100 0800 01000000 61 31"     // "a" = "1", IN_BATCH
                + " 5184103b 0068e5cf8b010000 0100 0900 00000000 62").replace(" ", "")); // delete "b"
        assertThat(buf).isEqualTo(expected);
    }
}
