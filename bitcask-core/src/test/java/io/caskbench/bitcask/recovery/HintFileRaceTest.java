package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskCorruptionException;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.HintReader;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Open reads a hint file twice, once to check it and once to load it, and finds it by name before it
 * opens it. A file that another hand changes or removes in between must not put unchecked entries
 * in the key directory, nor leave a file open. A close that fails on the way out must not hide
 * the failure that made open give up.
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

        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        AtomicInteger reads = changeBetweenCheckAndLoad(watching, hint, withFirstEntryMoved(original));
        assertThatThrownBy(() -> BitCask.open(dir, readOnly(watching))).isInstanceOf(BitCaskCorruptionException.class)
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
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        watching.failOpenReadOnly = file -> {
            if (file.equals(hint)) {
                delete(hint); // after open saw it, before it opens it
            }
            return false;
        };
        try (BitCask db = BitCask.open(dir, readOnly(watching))) {
            assertThat(db.size()).isEqualTo(KEYS);
            for (int k = 0; k < KEYS; k += 97) {
                assertThat(db.get(key(k))).as("key %d", k).isEqualTo(value(k));
            }
        }
        assertThat(hint).doesNotExist();
        assertThat(watching.openHandles).as("files left open").hasValue(0);
    }

    @EveryBackend
    void aCloseThatFailsAfterTheLoadFailedKeepsTheLoadsFailure(Backend backend) throws IOException {
        fill(backend);
        Path hint = dir.resolve("000000001.hint");
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        changeBetweenCheckAndLoad(watching, hint, withFirstEntryMoved(Files.readAllBytes(hint)));
        watching.afterReadOnlyClose = failingCloseOf("000000001.hint");
        Throwable thrown = catchThrowable(() -> BitCask.open(dir, readOnly(watching)));
        // The load's failure says what is wrong with the store; the close's only rides along.
        assertThat(thrown).isInstanceOf(BitCaskCorruptionException.class)
                .hasMessageContaining("000000001.hint changed after open checked it");
        assertThat(thrown.getSuppressed()).extracting(Throwable::getMessage)
                .containsExactly("injected: cannot close 000000001.hint");
        assertThat(watching.openHandles).as("files left open").hasValue(0);
    }

    @EveryBackend
    void aCloseThatFailsAfterTheCheckFailedKeepsTheChecksFailure(Backend backend) {
        fill(backend);
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        watching.beforeRead = name -> {
            if (name.equals("000000001.hint")) {
                throw new BitCaskException("injected: cannot read " + name);
            }
        };
        watching.afterReadOnlyClose = failingCloseOf("000000001.hint");
        Throwable thrown = catchThrowable(() -> BitCask.open(dir, readOnly(watching)));
        assertThat(thrown).isInstanceOf(BitCaskException.class).hasMessage("injected: cannot read 000000001.hint");
        assertThat(thrown.getSuppressed()).extracting(Throwable::getMessage)
                .containsExactly("injected: cannot close 000000001.hint");
        assertThat(watching.openHandles).as("files left open").hasValue(0);
    }

    /** The first entry's record one byte further on: a well-formed hint file, but not the one checked. */
    private static byte[] withFirstEntryMoved(byte[] hint) {
        byte[] changed = hint.clone();
        int at = HintFormat.HEADER_SIZE + HintFormat.ENTRY_OFFSET;
        RecordFormat.putInt(changed, at, RecordFormat.getInt(hint, at) + 1);
        return changed;
    }

    /** Writes {@code changed} over {@code hint} before its second read: after open's check, before its load. */
    private static AtomicInteger changeBetweenCheckAndLoad(WatchingBackend watching, Path hint, byte[] changed) {
        AtomicInteger reads = new AtomicInteger();
        String name = hint.getFileName().toString();
        watching.beforeRead = read -> {
            if (read.equals(name) && reads.incrementAndGet() == 2) {
                write(hint, changed);
            }
        };
        return reads;
    }

    /** A close of the file named {@code name} that fails once it has let the file go. */
    private static Consumer<String> failingCloseOf(String name) {
        return closed -> {
            if (closed.equals(name)) {
                throw new BitCaskException("injected: cannot close " + name);
            }
        };
    }

    private static BitCaskOptions readOnly(WatchingBackend watching) {
        return InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching).segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE)
                .readOnly(true).build();
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
        return Bytes.filled(100, k);
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
