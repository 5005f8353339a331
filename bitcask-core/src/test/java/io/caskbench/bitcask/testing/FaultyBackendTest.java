package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.testing.FaultyBackend.Call;
import io.caskbench.bitcask.testing.FaultyBackend.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fault injector itself: it must count, name and fail exactly the calls it says. */
class FaultyBackendTest {

    @TempDir
    Path dir;

    /** Makes one call of every kind (one of them twice) in a new directory under the temporary one. */
    private void everyKind(FaultyBackend b) {
        Path dir;
        try {
            dir = Files.createTempDirectory(this.dir, "calls");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path seg = dir.resolve("000000001.data");
        byte[] data = {1, 2, 3, 4};
        try (SegmentWriter w = b.openWritable(seg, 1 << 16)) {
            w.write(0, data, 0, data.length);
            w.truncate(4); // out of Kind's order, so each position below is distinct
        }
        try (SegmentReader r = b.openReadOnly(seg)) {
            r.read(0, new byte[4], 0, 4);
            r.size();
        }
        b.readFile(dir.resolve("000000001.hint"));
        b.writeFile(dir.resolve("000000001.hint"), data);
        b.rename(dir.resolve("000000001.hint"), dir.resolve("000000002.hint"));
        b.delete(dir.resolve("000000002.hint"));
        b.linkOrCopy(seg, dir.resolve("copy.data"));
        try (SegmentReader r = b.openReadOnly(seg)) {
            b.copyPrefix(r, 2, dir.resolve("prefix.data"));
        }
        b.forceFile(seg);
        b.forceDirectory(dir);
    }

    @Test
    void countsEveryKindAndRecordsWhatEachCallWas() {
        FaultyBackend b = new FaultyBackend(new FileChannelBackend());
        b.recordCalls(true);
        everyKind(b);
        List<Call> calls = b.calls();
        assertThat(calls).extracting(Call::kind).containsExactly(Kind.OPEN_WRITABLE, Kind.WRITE, Kind.TRUNCATE,
                Kind.OPEN_READ_ONLY, Kind.READ, Kind.SIZE, Kind.READ_FILE, Kind.WRITE_FILE, Kind.RENAME, Kind.DELETE,
                Kind.LINK_OR_COPY, Kind.OPEN_READ_ONLY, Kind.COPY_PREFIX, Kind.READ, Kind.FORCE_FILE, Kind.FORCE_DIRECTORY);
        assertThat(calls).extracting(Call::number).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L);
        assertThat(calls.get(8).path().getFileName()).hasToString("000000001.hint");
        assertThat(calls.get(8).other().getFileName()).hasToString("000000002.hint");
        assertThat(b.count()).isEqualTo(16);
        assertThat(b.count(Kind.READ)).isEqualTo(2);
        assertThat(b.openHandles()).isZero();
    }

    @Test
    void failsExactlyTheKthCallAndNothingAfterIt() {
        for (int k = 1; k <= 16; k++) {
            FaultyBackend b = new FaultyBackend(new FileChannelBackend());
            b.failCall(k);
            int kth = k;
            assertThatThrownBy(() -> everyKind(b)).as("k=%d", k).isInstanceOf(BitCaskException.class)
                    .hasMessageStartingWith("injected: call " + kth + " ");
            assertThat(b.count()).as("calls up to the failing one").isEqualTo(k);
            assertThat(b.fired().number()).isEqualTo(k);
            everyKind(b); // the fault is gone: every call succeeds
            assertThat(b.count()).isEqualTo(k + 16);
        }
    }

    @Test
    void aKindFilterCountsOnlyThoseKinds() {
        FaultyBackend b = new FaultyBackend(new FileChannelBackend());
        b.failCall(2, Set.of(Kind.OPEN_READ_ONLY));
        assertThatThrownBy(() -> everyKind(b)).isInstanceOf(BitCaskException.class);
        assertThat(b.fired().kind()).isEqualTo(Kind.OPEN_READ_ONLY);
        assertThat(b.fired().number()).as("the second open read-only is the 12th call").isEqualTo(12);
    }

    @Test
    void aTornWriteStoresHalfItsBytes() {
        FaultyBackend b = new FaultyBackend(new FileChannelBackend());
        b.tornFaults(true);
        b.failCall(1, EnumSet.of(Kind.WRITE));
        try (SegmentWriter w = b.openWritable(dir.resolve("f"), 1 << 16)) {
            assertThatThrownBy(() -> w.write(0, new byte[]{9, 9, 9, 9}, 0, 4)).hasMessageStartingWith("injected:");
            assertThat(w.size()).isEqualTo(2);
        }
    }

    @Test
    void onlyTheChosenThreadIsCountedButEveryThreadIsRecorded() throws Exception {
        FaultyBackend b = new FaultyBackend(new FileChannelBackend());
        b.recordCalls(true);
        b.countOnly(Thread.currentThread());
        b.failCall(1);
        Thread other = new Thread(() -> b.readFile(dir.resolve("absent")), "other");
        other.start();
        other.join();
        assertThat(b.fired()).as("the other thread's call is not counted").isNull();
        assertThat(b.calls()).singleElement().satisfies(c -> {
            assertThat(c.number()).isZero();
            assertThat(c.thread()).isEqualTo("other");
        });
        assertThatThrownBy(() -> b.readFile(dir.resolve("absent"))).hasMessageContaining("READ_FILE");
    }

    @Test
    void handlesLeftOpenAreCounted() {
        FaultyBackend b = new FaultyBackend(new FileChannelBackend());
        SegmentWriter w = b.openWritable(dir.resolve("f"), 1 << 16);
        assertThat(b.openHandles()).isEqualTo(1);
        w.close();
        w.close();
        assertThat(b.openHandles()).isZero();
    }
}
