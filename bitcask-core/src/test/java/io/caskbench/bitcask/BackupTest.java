package io.caskbench.bitcask;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.StoreFiles;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.caskbench.bitcask.testing.DamagedStore.flip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A backup is a copy: it shares no file with the store, so bad bytes in one never reach the other,
 * and it checks every record as it copies, so the bad bytes of a damaged store are reported instead
 * of passed on as good. A checkpoint is the cheap kind: it hard-links the sealed segments.
 */
class BackupTest {

    /** Values per store: at 20 KiB, three to a 64 KiB segment, so several segments. */
    private static final int KEYS = 8;

    @TempDir
    Path tmp;

    private static BitCaskOptions options(Backend backend) {
        return BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build();
    }

    private static byte[] value(int i) {
        return Bytes.filled(20 << 10, i);
    }

    private static void fill(BitCask db) {
        for (int i = 0; i < KEYS; i++) {
            db.put("k" + i, value(i));
        }
    }

    /** A store of {@link #KEYS} keys in several segments, closed, so each sealed segment has its hint. */
    private Path filledAndClosed(Backend backend) {
        Path dir = tmp.resolve("db");
        try (BitCask db = BitCask.open(dir, options(backend))) {
            fill(db);
        }
        return dir;
    }

    private static void checkContents(Path dir, Backend backend) {
        try (BitCask db = BitCask.open(dir, options(backend).toBuilder().readOnly(true).build())) {
            for (int i = 0; i < KEYS; i++) {
                assertThat(db.get("k" + i)).as("k%d", i).isEqualTo(value(i));
            }
        }
    }

    /** Where a byte of the first record's value lies in a data file. */
    private static long insideFirstValue() {
        return RecordFormat.FILE_HEADER_SIZE + RecordFormat.HEADER_SIZE + 100;
    }

    @EveryBackend
    void aByteFlippedInABackupLeavesTheStoreClean(Backend backend) throws IOException {
        Path dir = tmp.resolve("db");
        Path target = tmp.resolve("backup");
        BackupReport report;
        try (BitCask db = BitCask.open(dir, options(backend))) {
            fill(db);
            report = db.backup(target);
        }
        assertThat(report.clean()).as("%s", report).isTrue();
        assertThat(report.records()).isEqualTo(KEYS);
        List<Path> data = StoreFiles.dataFiles(dir);
        assertThat(data).hasSizeGreaterThan(2);
        for (Path source : data) {
            assertThat(Files.isSameFile(source, target.resolve(source.getFileName()))).as("%s shared", source).isFalse();
        }
        flip(target.resolve(data.get(0).getFileName()), insideFirstValue());
        assertThat(BitCask.verify(dir).findings()).as("the store after a byte of its backup changed").isEmpty();
        assertThat(BitCask.verify(target).dataAtRisk()).as("the backup, where the byte changed").isTrue();
        checkContents(dir, backend);
    }

    @EveryBackend
    void aBackupOfADamagedSegmentReportsTheBadBytesAndKeepsThemAsTheStoreDoes(Backend backend) throws IOException {
        Path dir = filledAndClosed(backend);
        Path target = tmp.resolve("backup");
        Path first = StoreFiles.dataFiles(dir).get(0);
        flip(first, insideFirstValue()); // open loads the segment from its hint and never reads the value
        BackupReport report;
        try (BitCask db = BitCask.open(dir, options(backend))) {
            report = db.backup(target);
            db.put("after", Bytes.b("the store goes on"));
        }
        assertThat(report.clean()).isFalse();
        assertThat(report.dataAtRisk()).isTrue();
        assertThat(report.findings()).singleElement().satisfies(f -> {
            assertThat(f.file()).isEqualTo(first);
            assertThat(f.kind()).isEqualTo(VerifyReport.Kind.CORRUPT_RECORDS);
            assertThat(f.offset()).isEqualTo(RecordFormat.FILE_HEADER_SIZE);
        });
        // the same bytes in the backup: verify finds there what the backup reported
        assertThat(BitCask.verify(target).findings(VerifyReport.Kind.CORRUPT_RECORDS)).singleElement()
                .satisfies(f -> assertThat(f.offset()).isEqualTo(RecordFormat.FILE_HEADER_SIZE));
        assertThat(Files.readAllBytes(target.resolve(first.getFileName()))).isEqualTo(Files.readAllBytes(first));
    }

    @EveryBackend
    void aHintThatFailsItsChecksIsLeftOutOfTheBackupAndReported(Backend backend) throws IOException {
        Path dir = filledAndClosed(backend);
        Path target = tmp.resolve("backup");
        Path hint = dir.resolve("000000001.hint");
        flip(hint, Files.size(hint) - 1); // its CRC
        BackupReport report;
        try (BitCask db = BitCask.open(dir, options(backend).toBuilder().readOnly(true).build())) {
            report = db.backup(target); // read-only: no hint is written again meanwhile
        }
        assertThat(report.findings()).singleElement().satisfies(f -> {
            assertThat(f.file()).isEqualTo(hint);
            assertThat(f.kind()).isEqualTo(VerifyReport.Kind.HINT_UNUSABLE);
        });
        assertThat(report.dataAtRisk()).isFalse();
        assertThat(target.resolve("000000001.data")).exists();
        assertThat(target.resolve("000000001.hint")).doesNotExist();
        assertThat(target.resolve("000000002.hint")).exists();
        checkContents(target, backend);
    }

    @EveryBackend
    void aCheckpointLinksTheSealedSegmentsAndCopiesTheNewest(Backend backend) throws IOException {
        Path dir = tmp.resolve("db");
        Path target = tmp.resolve("checkpoint");
        assumeLinksAllowed();
        try (BitCask db = BitCask.open(dir, options(backend))) {
            fill(db);
            db.checkpoint(target);
            List<Path> data = StoreFiles.dataFiles(dir);
            assertThat(data).hasSizeGreaterThan(2);
            for (Path source : data.subList(0, data.size() - 1)) {
                assertThat(Files.isSameFile(source, target.resolve(source.getFileName()))).as("%s shared", source).isTrue();
            }
            Path newest = data.get(data.size() - 1);
            assertThat(Files.isSameFile(newest, target.resolve(newest.getFileName()))).as("the newest shared").isFalse();
        }
        checkContents(target, backend);
    }

    /** Skips a test of hard links where the temporary directory's file system has none. */
    private void assumeLinksAllowed() throws IOException {
        Path probe = Files.writeString(tmp.resolve("probe"), "x");
        try {
            Files.createLink(tmp.resolve("probe-link"), probe);
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "no hard links in " + tmp + ": " + e);
        }
        Files.delete(tmp.resolve("probe-link"));
        Files.delete(probe);
    }
}
