package io.caskbench.bitcask.format;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store written by this format version and committed under {@code src/test/resources/format/v2-store}:
 * every build opens a copy and reads back exactly what was written, through its hint files and its
 * records (two merged segments with hints, a newer segment with a batch and tombstones that shadow
 * merged values, a time to live far ahead and one long past, an empty value). A future format version
 * is refused with a message that says so.
 *
 * <p>The store was made with 64 KiB segments and a clock fixed at 2026-11-28T00:00:00Z: 60 keys
 * {@code key-i} with {@code "value-i-"} repeated {@code 1 + i % 5} times, every third overwritten with
 * {@code "second-i"}, those with {@code i % 7 == 1} deleted; 40 keys {@code bulk-i} of 2000 zero bytes;
 * {@code ttl-far} (100 years) and {@code ttl-past} (1 ms); a batch putting {@code batch-a} and
 * {@code batch-b} and deleting {@code key-2}; {@code empty}; a full merge; then {@code after-merge-i}
 * for i below 10, a batch putting {@code batch-c} and deleting {@code key-5}, and a delete of
 * {@code key-0}.
 */
class CommittedStoreTest {

    @TempDir
    Path tmp;

    private Path copyOfTheCommittedStore() throws IOException, URISyntaxException {
        Path source = Path.of(CommittedStoreTest.class.getResource("/format/v2-store").toURI());
        Path dir = Files.createDirectories(tmp.resolve("v2-store"));
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    /** What the committed store holds, as the class comment says it was written. */
    private static Map<String, byte[]> expected() {
        Map<String, byte[]> m = new TreeMap<>();
        for (int i = 0; i < 60; i++) {
            m.put("key-" + i, utf8(i % 3 == 0 ? "second-" + i : ("value-" + i + "-").repeat(1 + i % 5)));
            if (i % 7 == 1) {
                m.remove("key-" + i);
            }
        }
        for (int i = 0; i < 40; i++) {
            m.put("bulk-" + i, new byte[2000]);
        }
        m.put("ttl-far", utf8("lives-until-2126"));
        m.put("batch-a", utf8("A"));
        m.put("batch-b", utf8("B"));
        m.remove("key-2");
        m.put("empty", new byte[0]);
        for (int i = 0; i < 10; i++) {
            m.put("after-merge-" + i, utf8("m" + i));
        }
        m.put("batch-c", utf8("C"));
        m.remove("key-5");
        m.remove("key-0");
        return m;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyBuildReadsTheCommittedStoreBack() throws Exception {
        Path dir = copyOfTheCommittedStore();
        VerifyReport report = BitCask.verify(dir);
        assertThat(report.clean()).as("verify of the committed store: %s", report).isTrue();

        Map<String, byte[]> found = new TreeMap<>();
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().readOnly(true).build())) {
            db.forEach((k, v) -> found.put(new String(k, StandardCharsets.UTF_8), v));
            assertThat(db.get("ttl-past")).as("a record past its time to live").isNull();
            assertThat(db.get("key-0")).as("a merged value shadowed by a newer tombstone").isNull();
        }
        Map<String, byte[]> expected = expected();
        assertThat(found.keySet()).containsExactlyElementsOf(expected.keySet());
        expected.forEach((k, v) -> assertThat(Arrays.equals(found.get(k), v)).as("value of %s", k).isTrue());
    }

    @Test
    void aFileOfAFutureFormatVersionIsRefusedWithAClearMessage() throws Exception {
        Path dir = copyOfTheCommittedStore();
        Path newest = dir.resolve("000000006.data");
        byte[] bytes = Files.readAllBytes(newest);
        byte[] header = Arrays.copyOf(bytes, RecordFormat.FILE_HEADER_SIZE);
        for (int at = 0; at < RecordFormat.FILE_HEADER_SIZE; at += RecordFormat.HEADER_BLOCK_SIZE) {
            RecordFormat.putShort(header, at + RecordFormat.HEADER_VERSION_OFFSET, RecordFormat.VERSION + 1);
            RecordFormat.putInt(header, at + RecordFormat.HEADER_CRC_OFFSET, RecordFormat.crc(header, at, RecordFormat.HEADER_CRC_OFFSET));
        }
        System.arraycopy(header, 0, bytes, 0, header.length);
        Files.write(newest, bytes);

        assertThatThrownBy(() -> BitCask.open(dir, BitCaskOptions.builder().readOnly(true).build()))
                .isInstanceOf(BitCaskException.class)
                .hasMessageContaining("000000006.data is in format version " + (RecordFormat.VERSION + 1))
                .hasMessageContaining("open it with a newer release");
    }
}
