package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.WriteBatch;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.EveryBackend;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch cut anywhere inside its members (as a kill -9 during the copy leaves it) must come back
 * whole or not at all. Its members are valid records one by one, so recovery must not pick them up
 * individually after the batch fails its span check.
 */
class TornBatchTest {

    @TempDir
    Path dir;

    @TempDir
    Path copies;

    @EveryBackend
    void aBatchCutInsideItsMembersComesBackNotAtAll(Backend backend) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(1 << 20).build();
        long batchStart;
        long end;
        Path data = dir.resolve("000000001.data");
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("before", b("x"));
            batchStart = db.stats().segments().get(0).dataBytes() + RecordFormat.FILE_HEADER_SIZE;
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 10; i++) {
                batch.put("m" + i, b("member-" + i));
            }
            db.write(batch);
            end = db.stats().segments().get(0).dataBytes() + RecordFormat.FILE_HEADER_SIZE;
        }
        Files.deleteIfExists(dir.resolve("000000001.hint"));
        for (long cut = batchStart + 40; cut < end; cut += 17) {
            Path copy = copies.resolve(backend + "-cut-" + cut);
            Files.createDirectories(copy);
            Files.copy(data, copy.resolve("000000001.data"));
            try (RandomAccessFile raf = new RandomAccessFile(copy.resolve("000000001.data").toFile(), "rw")) {
                raf.setLength(cut);
            }
            try (BitCask db = BitCask.open(copy, o)) {
                assertThat(db.get("before")).isEqualTo(b("x"));
                for (int i = 0; i < 10; i++) {
                    assertThat(db.get("m" + i)).as("member %d with the file cut at %d", i, cut).isNull();
                }
            }
        }
    }
}
