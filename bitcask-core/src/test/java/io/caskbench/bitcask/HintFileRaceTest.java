package io.caskbench.bitcask;

import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.HintReader;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Open reads a hint file twice, once to check it and once to load it, and finds it by name before it
 * opens it. A file that another hand changes or removes in between must not put unchecked entries
 * in the key directory, nor leave a file open.
 */
class HintFileRaceTest {

    private static final int KEYS = 3000;

    @TempDir
    Path dir;

    @EveryBackend
    void aHintFileThatChangesAfterItsCheckFailsTheOpen(Backend backend) throws IOException {
        fill(backend);
        Path hint = dir.resolve("000000001.hint");
        byte[] original = Files.readAllBytes(hint);
        assertThat(original.length).as("the check reads the file in one window").isLessThan(HintReader.WINDOW_BYTES);
        // The first entry's record one byte further on: a well-formed file, but not the one checked.
        byte[] changed = original.clone();
        int at = HintFormat.HEADER_SIZE + HintFormat.ENTRY_OFFSET;
        RecordFormat.putInt(changed, at, RecordFormat.getInt(original, at) + 1);

        WatchingBackend watching = new WatchingBackend(backend.create());
        AtomicInteger reads = new AtomicInteger();
        watching.beforeRead = name -> {
            if (name.equals("000000001.hint") && reads.incrementAndGet() == 2) {
                write(hint, changed); // between the check and the load
            }
        };
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE)
                .readOnly(true).build();
        assertThatThrownBy(() -> BitCask.open(dir, o)).isInstanceOf(BitCaskCorruptionException.class)
                .hasMessageContaining("000000001.hint changed after open checked it");
        assertThat(reads).as("reads of the hint file").hasValue(2);
        assertThat(watching.openHandles).as("files left open").hasValue(0);

        write(hint, original);
        try (BitCask db = BitCask.open(dir, options(backend).readOnly(true).build())) {
            assertThat(db.size()).isEqualTo(KEYS);
            assertThat(db.get(key(0))).isEqualTo(value(0));
        }
    }

    @EveryBackend
    void aHintFileRemovedBeforeItIsOpenedIsAsIfItHadNeverBeenThere(Backend backend) {
        fill(backend);
        Path hint = dir.resolve("000000001.hint");
        WatchingBackend watching = new WatchingBackend(backend.create());
        watching.failOpenReadOnly = file -> {
            if (file.equals(hint)) {
                delete(hint); // after open saw it, before it opens it
            }
            return false;
        };
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE)
                .readOnly(true).build();
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.size()).isEqualTo(KEYS);
            for (int k = 0; k < KEYS; k += 97) {
                assertThat(db.get(key(k))).as("key %d", k).isEqualTo(value(k));
            }
        }
        assertThat(hint).doesNotExist();
        assertThat(watching.openHandles).as("files left open").hasValue(0);
    }

    /** Several segments, each with a hint file. */
    private void fill(Backend backend) {
        try (BitCask db = BitCask.open(dir, options(backend).build())) {
            for (int k = 0; k < KEYS; k++) {
                db.put(key(k), value(k));
            }
        }
        assertThat(dir.resolve("000000002.hint")).exists();
    }

    private static BitCaskOptions.Builder options(Backend backend) {
        return BitCaskOptions.builder().backend(backend).segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE).autoMerge(false);
    }

    private static byte[] key(int k) {
        return ("key-" + k).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int k) {
        byte[] v = new byte[100];
        Arrays.fill(v, (byte) k);
        return v;
    }

    private static void write(Path file, byte[] content) {
        try {
            Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
