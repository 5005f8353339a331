package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.WriteBatch;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static io.caskbench.bitcask.testing.Bytes.b;
import static io.caskbench.bitcask.testing.Bytes.indexOf;
import static io.caskbench.bitcask.testing.Bytes.overwrite;
import static io.caskbench.bitcask.testing.Bytes.truncate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Records are bound to the file and offset they were written at: bytes that look like a record
 * anywhere else (inside a user's value after a torn write) never replay, and a batch stays whole
 * whatever part of it is damaged.
 */
class RecordBindingTest {

    @TempDir
    Path dir;

    private static BitCaskOptions opts(Backend backend) {
        return TestOptions.with(backend, 1 << 20);
    }

    /** A record with a correct plain CRC, as a user could put inside a value. */
    private static byte[] forged(int flags, String key, String value) {
        byte[] k = b(key);
        byte[] v = value == null ? null : b(value);
        byte[] buf = new byte[RecordFormat.recordLength(flags, k.length, v == null ? 0 : v.length)];
        RecordFormat.encode(buf, 0, 1L, flags, 0L, k, v);
        return buf;
    }

    @EveryBackend
    void recordsForgedInsideATornValueNeverReplay(Backend backend) throws Exception {
        byte[] tombstone = forged(RecordFormat.TOMBSTONE, "victim", null);
        byte[] ghost = forged(0, "ghost", "nobody wrote me");
        byte[] value = new byte[64 << 10];
        Arrays.fill(value, (byte) 'x');
        System.arraycopy(tombstone, 0, value, 1000, tombstone.length);
        System.arraycopy(ghost, 0, value, 2000, ghost.length);
        Path data = dir.resolve("000000001.data");
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            db.put("victim", b("alive"));
            db.put("big", value);
        }
        Files.deleteIfExists(dir.resolve("000000001.hint"));
        byte[] file = Files.readAllBytes(data);
        int valueAt = indexOf(file, Arrays.copyOfRange(value, 0, 1000));
        // A torn write of the big value: it stops after the forged records.
        truncate(data, valueAt + 3000);
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.get("victim")).isEqualTo(b("alive"));
            assertThat(db.get("ghost")).isNull();
            assertThat(db.get("big")).isNull();
            db.put("after", b("1"));
        }
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.get("victim")).isEqualTo(b("alive"));
            assertThat(db.get("ghost")).isNull();
            assertThat(db.get("after")).isEqualTo(b("1"));
        }
    }

    @EveryBackend
    void aBatchWhoseHeaderIsDamagedComesBackNotAtAll(Backend backend) throws Exception {
        Path data = dir.resolve("000000001.data");
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            db.put("before", b("x"));
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 10; i++) {
                batch.put("member" + i, b("value-" + i));
            }
            db.write(batch);
            db.put("after", b("y"));
        }
        Files.deleteIfExists(dir.resolve("000000001.hint"));
        byte[] file = Files.readAllBytes(data);
        int firstMember = indexOf(file, b("member0"));
        // The batch header record sits just before the first member; flip a byte of its timestamp.
        int batchHeader = firstMember - RecordFormat.HEADER_SIZE - RecordFormat.HEADER_SIZE - 12;
        overwrite(data, batchHeader + RecordFormat.TIMESTAMP_OFFSET, new byte[] {(byte) (file[batchHeader + RecordFormat.TIMESTAMP_OFFSET] ^ 0x55)});
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.get("before")).isEqualTo(b("x"));
            for (int i = 0; i < 10; i++) {
                assertThat(db.get("member" + i)).as("member %d", i).isNull();
            }
            assertThat(db.get("after")).isEqualTo(b("y"));
        }
    }

    @Test
    void aStoreOfTheFirstFormatVersionIsRefusedWithAClearMessage() throws Exception {
        Files.createDirectories(dir);
        ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(RecordFormat.MAGIC).putShort((short) 1).putShort((short) 0).putLong(1L);
        Files.write(dir.resolve("000000001.data"), header.array());
        assertThatThrownBy(() -> BitCask.open(dir, opts(Backend.MAPPED)))
                .isInstanceOf(BitCaskException.class)
                .hasMessageContaining("version 1");
    }
}
