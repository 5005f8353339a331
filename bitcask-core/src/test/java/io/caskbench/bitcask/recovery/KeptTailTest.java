package io.caskbench.bitcask.recovery;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.RepairReport;
import io.caskbench.bitcask.RepairReport.ActionKind;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.testing.DamagedStore;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.caskbench.bitcask.testing.BatchStore.BATCH;
import static io.caskbench.bitcask.testing.BatchStore.BATCHES;
import static io.caskbench.bitcask.testing.BatchStore.build;
import static io.caskbench.bitcask.testing.BatchStore.damageValue;
import static io.caskbench.bitcask.recovery.DamagedBatchTest.readable;
import static io.caskbench.bitcask.recovery.DamagedBatchTest.seen;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Open never deletes a record that checks: when it cuts a torn or damaged tail off the newest
 * segment and a record in it checks on its own, the bytes it cuts are kept beside the segment in
 * {@code <segment>.tail-<offset>}, a file no store operation reads or deletes, with a WARN naming it.
 * Verify reports such a file, and a repair that cuts a tail keeps one alike. A torn last record, in
 * which nothing checks, is cut as before.
 */
class KeptTailTest {

    /** One segment holds both batches: the damaged second one is the newest segment's tail. */
    private static final BitCaskOptions ONE_SEGMENT = BitCaskOptions.builder().segmentSize(1 << 20).build();

    @TempDir
    Path tmp;

    /** A store whose only segment ends with a batch one byte of which is flipped, and no hint: open scans it. */
    private Path damagedTail(BitCaskOptions options) throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, options);
        assertThat(DamagedStore.segments(dir)).isEqualTo(1);
        Files.delete(DamagedStore.hint(dir, 1));
        damageValue(DamagedStore.data(dir, 1), BATCH + 500);
        return dir;
    }

    private static List<Path> tails(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().contains(".tail-")).sorted().toList();
        }
    }

    @EveryBackend
    void openKeepsTheTailItCutsBesideTheSegmentAndSaysWhere(Backend backend) throws IOException {
        BitCaskOptions options = ONE_SEGMENT.toBuilder().backend(backend).build();
        Path dir = damagedTail(options);
        Path data = DamagedStore.data(dir, 1);
        byte[] before = Files.readAllBytes(data);
        long cut = BitCask.verify(dir).findings(Kind.TORN_TAIL).get(0).offset();

        List<ILoggingEvent> warned;
        try (LogCapture seen = LogCapture.warnings(Recovery.class); BitCask db = BitCask.open(dir, options)) {
            db.put("after", new byte[] {1});
            warned = seen.events();
        }

        Path tail = dir.resolve("000000001.data.tail-" + cut);
        assertThat(tails(dir)).containsExactly(tail);
        byte[] kept = Files.readAllBytes(tail);
        assertThat(Arrays.copyOfRange(kept, RecordFormat.FILE_HEADER_SIZE, kept.length)).as("the cut bytes, after a file header")
                .isEqualTo(Arrays.copyOfRange(before, (int) cut, before.length));
        assertThat(Arrays.copyOfRange(kept, 0, RecordFormat.FILE_HEADER_SIZE)).as("the segment's header: its salt checks the records")
                .isEqualTo(Arrays.copyOfRange(before, 0, RecordFormat.FILE_HEADER_SIZE));
        assertThat(warned).anySatisfy(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage()).contains(tail.toString());
        });
        assertThat(readable(seen(dir, options))).as("the first batch and nothing of the second").isEqualTo(BATCH);

        try (BitCask db = BitCask.open(dir, options)) {
            db.put("again", new byte[] {2});
        }
        assertThat(tails(dir)).as("no store operation reads or deletes it").containsExactly(tail);
        assertThat(Files.readAllBytes(tail)).isEqualTo(kept);
    }

    @Test
    void verifyReportsAKeptTailAndWhatChecksInItAndRepairLeavesIt() throws IOException {
        Path dir = damagedTail(ONE_SEGMENT);
        try (BitCask db = BitCask.open(dir, ONE_SEGMENT)) {
            db.put("after", new byte[] {1});
        }
        List<Finding> kept = BitCask.verify(dir).findings(Kind.KEPT_TAIL);
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).file()).isEqualTo(tails(dir).get(0));
        assertThat(kept.get(0).detail()).contains("cut off 000000001.data at offset").contains(BATCH - 1 + " records in them check on their own");
        assertThat(Kind.KEPT_TAIL.dataAtRisk()).as("open lost nothing").isFalse();

        RepairReport r = BitCask.repair(dir, true, tmp.resolve("backup"), ProgressListener.NONE);
        assertThat(r.unrepaired()).extracting(Finding::kind).contains(Kind.KEPT_TAIL);
        assertThat(tails(dir)).hasSize(1);
    }

    @Test
    void aRepairThatCutsATailKeepsItToo() throws IOException {
        Path dir = damagedTail(ONE_SEGMENT);
        long cut = BitCask.verify(dir).findings(Kind.TORN_TAIL).get(0).offset();
        RepairReport r = BitCask.repair(dir, true, tmp.resolve("backup"), ProgressListener.NONE);
        assertThat(r.actions()).extracting(RepairReport.Action::kind).contains(ActionKind.TRUNCATE);
        assertThat(r.actions().get(0).reason()).contains("000000001.data.tail-" + cut);
        assertThat(tails(dir)).containsExactly(dir.resolve("000000001.data.tail-" + cut));
        assertThat(r.after().findings(Kind.KEPT_TAIL)).hasSize(1);
    }

    @Test
    void aTornLastRecordIsCutWithoutACopyAsNothingInItChecks() throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, ONE_SEGMENT);
        try (BitCask db = BitCask.open(dir, ONE_SEGMENT)) {
            db.put("last", new byte[100]); // a record on its own at the end, which a crash cuts short
        }
        Path data = DamagedStore.data(dir, 1);
        try (var f = new java.io.RandomAccessFile(data.toFile(), "rw")) {
            f.setLength(f.length() - 7);
        }
        Files.delete(DamagedStore.hint(dir, 1));
        try (BitCask db = BitCask.open(dir, ONE_SEGMENT)) {
            db.put("after", new byte[] {1});
        }
        assertThat(tails(dir)).isEmpty();
        assertThat(BitCask.verify(dir).clean()).isTrue();
    }

    @Test
    void aTailOfZerosIsNotKept() throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, ONE_SEGMENT);
        Path data = DamagedStore.data(dir, 1);
        try (var ch = java.nio.channels.FileChannel.open(data, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(4096), Files.size(data)); // unused preallocated space
        }
        Files.delete(DamagedStore.hint(dir, 1));
        try (BitCask db = BitCask.open(dir, ONE_SEGMENT)) {
            db.put("after", new byte[] {1});
        }
        assertThat(tails(dir)).isEmpty();
        assertThat(readable(seen(dir, ONE_SEGMENT))).isEqualTo(BATCH * BATCHES);
    }

    @Test
    void whenTheTailCannotBeKeptOpenLeavesTheSegmentUncutAndWritesInANewOne() throws IOException {
        Path dir = damagedTail(ONE_SEGMENT);
        Path data = DamagedStore.data(dir, 1);
        byte[] before = Files.readAllBytes(data);
        FaultyBackend faulty = new FaultyBackend(new FileChannelBackend());
        faulty.failCall(1, EnumSet.of(FaultyBackend.Kind.COPY_PREFIX));
        BitCaskOptions options = InternalOptions.withSegmentBackend(ONE_SEGMENT.toBuilder(), faulty).build();
        try (BitCask db = BitCask.open(dir, options)) {
            db.put("after", new byte[] {1});
            assertThat(db.get("after")).containsExactly(1);
        }
        assertThat(Files.readAllBytes(data)).as("nothing cut, nothing overwritten").isEqualTo(before);
        assertThat(DamagedStore.segments(dir)).isEqualTo(2);
        Map<String, String> now = seen(dir, ONE_SEGMENT);
        assertThat(readable(now)).isEqualTo(BATCH);
    }
}
