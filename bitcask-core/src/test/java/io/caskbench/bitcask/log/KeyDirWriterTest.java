package io.caskbench.bitcask.log;

import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.Location;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key directory's writer on its own, over real segment files and no log writer: the live-byte
 * accounting of the records a change replaces, and the expiry it reads back for a delete.
 */
class KeyDirWriterTest {

    @TempDir
    Path dir;

    private SegmentTable table;
    private KeyDirWriter keys;

    @BeforeEach
    void open() {
        table = new SegmentTable(new StoreDirectory(dir, new FileChannelBackend()), BitCaskOptions.MIN_SEGMENT_SIZE);
        keys = new KeyDirWriter(new KeyDir(0), table, dir, new WriteProtocol(), false);
    }

    @AfterEach
    void close() {
        table.inOrder().forEach(Segment::close);
    }

    /**
     * Each segment's live bytes are exactly the bytes of the records the directory points at: a
     * record replaced by a later put or a tombstone, in its own segment or in a later one, stops
     * counting with its own length, never the new record's.
     */
    @Test
    void aReplacedRecordStopsCountingWithItsOwnLength() {
        Segment first = table.create(1);
        Segment second = table.create(2);
        Written a1 = write(first, "a", 30, 0, 0);
        Written b = write(first, "b", 70, 0, 0);
        Written a2 = write(first, "a", 10, 0, 0);
        assertThat(first.liveBytes()).as("a's first record replaced in its own segment").isEqualTo(b.length + a2.length);
        Written a3 = write(second, "a", 200, 0, 0);
        write(second, "b", -1, 0, 0);
        assertThat(first.liveBytes()).as("every record of the first segment replaced").isZero();
        assertThat(second.liveBytes()).as("a tombstone itself is never live").isEqualTo(a3.length);
        assertThat(a1.length).isNotEqualTo(a2.length); // a length mixed up cannot come out right by chance
    }

    /** A delete asks whether the live record it removes has expired; the record is read at its location. */
    @Test
    void theExpiryIsReadFromTheRecordAtTheLocation() {
        Segment seg = table.create(1);
        Written ttl = write(seg, "ttl", 5, RecordFormat.EXPIRES, 1_000);
        Written plain = write(seg, "p", 0, 0, 0); // shorter than a header and an expiry: the read stays inside it
        assertThat(keys.currentLocation(bytes("ttl"), KeyHash.hash(bytes("ttl")))).isEqualTo(ttl.location);
        assertThat(keys.expired(ttl.location, 999)).isFalse();
        assertThat(keys.expired(ttl.location, 1_000)).isTrue();
        assertThat(keys.currentLocation(bytes("p"), KeyHash.hash(bytes("p")))).isEqualTo(plain.location);
        assertThat(keys.expired(plain.location, Long.MAX_VALUE)).isFalse();
    }

    /** A record written at the end of {@code seg}: where and how long. */
    private record Written(long location, int length) {
    }

    /** Writes a record of {@code key} (a tombstone when {@code valueLength} is -1) at the end of {@code seg} and indexes it. */
    private Written write(Segment seg, String key, int valueLength, int flags, long expiresAt) {
        byte[] k = bytes(key);
        byte[] value = valueLength < 0 ? null : new byte[valueLength];
        int f = value == null ? RecordFormat.TOMBSTONE : flags;
        int len = RecordFormat.recordLength(f, k.length, value == null ? 0 : value.length);
        byte[] buf = new byte[len];
        RecordFormat.encode(buf, 0, 1, f, expiresAt, k, value);
        long offset = seg.end();
        RecordFormat.seal(buf, 0, seg.salt(), offset);
        seg.writer().write(offset, buf, 0, len);
        seg.end(offset + len);
        keys.index(seg, offset, len, f, k, 0, k.length, KeyHash.hash(k));
        return new Written(Location.of(seg.slot(), offset), len);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
