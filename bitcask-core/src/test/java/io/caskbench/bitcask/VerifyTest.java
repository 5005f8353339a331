package io.caskbench.bitcask;

import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.HintState;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.ChildJvm;
import io.caskbench.bitcask.testing.DamagedStore;
import io.caskbench.bitcask.testing.LockHolder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.caskbench.bitcask.testing.Bytes.b;
import static io.caskbench.bitcask.testing.Bytes.overwrite;
import static io.caskbench.bitcask.testing.Bytes.truncate;
import static io.caskbench.bitcask.testing.DamagedStore.data;
import static io.caskbench.bitcask.testing.DamagedStore.flip;
import static io.caskbench.bitcask.testing.DamagedStore.hint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link BitCask#verify} names each kind of damage the corruption tests make, in the right file and
 * at the right offset, and agrees with what open does about it.
 */
class VerifyTest {

    @TempDir
    Path tmp;

    private Path dir;
    private int segments;

    @BeforeEach
    void build() throws Exception {
        dir = tmp.resolve("db");
        DamagedStore.build(dir);
        segments = DamagedStore.segments(dir);
        assertThat(segments).isGreaterThanOrEqualTo(4);
    }

    /** The top-level records and batches of a data file the store wrote: {offset, length, 1 for a batch}. */
    private static List<long[]> units(Path file) throws Exception {
        byte[] f = Files.readAllBytes(file);
        List<long[]> units = new ArrayList<>();
        for (int p = RecordFormat.FILE_HEADER_SIZE; p + RecordFormat.HEADER_SIZE <= f.length; ) {
            int len = RecordFormat.plausibleLength(f, p, false);
            boolean batch = (RecordFormat.flags(f, p) & RecordFormat.BATCH) != 0;
            if (batch) {
                len += RecordFormat.batchSpan(f, p);
            }
            units.add(new long[] {p, len, batch ? 1 : 0});
            p += len;
        }
        return units;
    }

    private static List<Kind> kinds(VerifyReport r) {
        return r.findings().stream().map(Finding::kind).toList();
    }

    @Test
    void aStoreLeftByCloseIsClean() {
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings()).isEmpty();
        assertThat(r.clean()).isTrue();
        assertThat(r.liveWriter()).isFalse();
        assertThat(r.segments()).hasSize(segments);
        assertThat(r.segments()).allSatisfy(s -> {
            assertThat(s.hint()).isEqualTo(HintState.USABLE);
            assertThat(s.hintCovered()).isEqualTo(s.validEnd()).isEqualTo(s.size());
            assertThat(s.version()).isEqualTo(RecordFormat.VERSION);
        });
        assertThat(r.segments().stream().mapToLong(VerifyReport.SegmentReport::records).sum())
                .isGreaterThan(3L * DamagedStore.KEYS);
        assertThat(r.segments().get(segments - 1).newest()).isTrue();
        VerifyReport files = BitCask.verify(dir, VerifyReport.Depth.FILES, ProgressListener.NONE);
        assertThat(files.clean()).isTrue();
        assertThat(files.segments()).allSatisfy(s -> assertThat(s.records()).isEqualTo(-1));
    }

    @Test
    void progressCoversEveryByteRead() {
        long[] seen = {0, 0};
        VerifyReport r = BitCask.verify(dir, VerifyReport.Depth.RECORDS, new ProgressListener() {
            @Override
            public void phase(String name, long totalBytes) {
                seen[0] = totalBytes;
            }

            @Override
            public void advance(long bytes) {
                seen[1] += bytes;
            }
        });
        assertThat(seen[1]).isEqualTo(r.bytesRead()).isEqualTo(seen[0]);
    }

    @Test
    void aFlippedByteInAnOlderSegmentIsCorruptionTheHintStillLists() throws Exception {
        long second = units(data(dir, 2)).stream().filter(u -> u[2] == 0).skip(1).findFirst().orElseThrow()[0];
        flip(data(dir, 2), second + RecordFormat.HEADER_SIZE + 1);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 2))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.CORRUPT_RECORDS);
            assertThat(f.offset()).isEqualTo(second);
        });
        assertThat(r.findings(hint(dir, 2))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.HINT_MISMATCH);
            assertThat(f.detail()).contains("offset " + second);
        });
        assertThat(r.segments().get(1).hint()).isEqualTo(HintState.WRONG);
        assertThat(r.dataAtRisk()).isTrue();
    }

    /**
     * Changes two bytes of the key of the hint's first entry so that its hash still sorts before
     * the second entry's: the file then passes every check of its own, order included.
     */
    private static void renameKeepingHashOrder(byte[] h, int entry) {
        int keyOff = entry + HintFormat.ENTRY_SIZE;
        int keyLength = RecordFormat.getUnsignedShort(h, entry + HintFormat.ENTRY_KEY_LENGTH);
        int second = keyOff + keyLength;
        int bound = KeyHash.hash(h, second + HintFormat.ENTRY_SIZE, RecordFormat.getUnsignedShort(h, second + HintFormat.ENTRY_KEY_LENGTH));
        byte a = h[keyOff];
        byte b = h[keyOff + 1];
        for (int candidate = 1; candidate < 1 << 16; candidate++) {
            h[keyOff] = (byte) (a ^ candidate);
            h[keyOff + 1] = (byte) (b ^ (candidate >>> 8));
            if (KeyHash.hash(h, keyOff, keyLength) <= bound) {
                return;
            }
        }
        throw new AssertionError("no two-byte change of the first key keeps the hint in hash order");
    }

    @Test
    void aHintThatPassesItsOwnChecksButNamesAnotherKeyIsAMismatch() throws Exception {
        byte[] h = Files.readAllBytes(hint(dir, 3));
        int entry = HintFormat.HEADER_SIZE;
        long offset = Integer.toUnsignedLong(RecordFormat.getInt(h, entry));
        renameKeepingHashOrder(h, entry);
        int body = h.length - HintFormat.FOOTER_SIZE;
        RecordFormat.putInt(h, body + 4, RecordFormat.crc(h, 0, body + 4));
        Files.write(hint(dir, 3), h);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.HINT_MISMATCH);
            assertThat(f.file()).isEqualTo(hint(dir, 3));
            assertThat(f.detail()).contains("1 disagreement").contains("entry for the record at offset " + offset + " differs");
        });
    }

    @Test
    void aZeroedRangeInsideASegmentIsCorruption() throws Exception {
        long size = Files.size(data(dir, 1));
        overwrite(data(dir, 1), size / 2, new byte[100]);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 1))).extracting(Finding::kind).containsExactly(Kind.CORRUPT_RECORDS);
        Finding f = r.findings(data(dir, 1)).get(0);
        assertThat(f.offset()).isLessThanOrEqualTo(size / 2);
        assertThat(f.offset() + f.length()).isGreaterThanOrEqualTo(size / 2 + 100);
    }

    @Test
    void aTornTailOfTheNewestSegmentIsReportedWhereOpenCutsIt() throws Exception {
        Path newest = data(dir, segments);
        long size = Files.size(newest);
        truncate(newest, size - 3);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(newest)).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.TORN_TAIL);
            assertThat(f.offset() + f.length()).isEqualTo(size - 3);
            assertThat(f.detail()).contains("newest");
        });
        assertThat(r.findings(hint(dir, segments))).extracting(Finding::kind).containsExactly(Kind.HINT_UNUSABLE);
        long cut = r.findings(newest).get(0).offset();
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS)) {
            assertThat(db.stats().segments().get(segments - 1).dataBytes() + RecordFormat.FILE_HEADER_SIZE).isEqualTo(cut);
        }
    }

    @Test
    void aTornTailOfAnOlderSegmentIsReportedAsLeftAlone() throws Exception {
        long size = Files.size(data(dir, 1));
        truncate(data(dir, 1), size - 5);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 1))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.TORN_TAIL);
            assertThat(f.detail()).contains("older");
        });
    }

    @Test
    void aBatchCutInsideItsMembersIsATornBatch() throws Exception {
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS)) {
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 6; i++) {
                batch.put("last-batch-" + i, b("member value " + i));
            }
            db.write(batch);
        }
        Path newest = data(dir, DamagedStore.segments(dir));
        truncate(newest, Files.size(newest) - 10);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(newest)).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.TORN_TAIL);
            assertThat(f.detail()).contains("torn batch");
        });
    }

    @Test
    void aDamagedBatchMemberInsideASegmentSkipsTheWholeBatch() throws Exception {
        long id = 0;
        long member = -1;
        for (long s = 1; s < segments && member < 0; s++) {
            List<long[]> units = units(data(dir, s));
            for (int i = 0; i + 1 < units.size() && member < 0; i++) {
                if (units.get(i)[2] == 1) {
                    id = s;
                    member = units.get(i)[0] + RecordFormat.BATCH_HEADER_SIZE + RecordFormat.HEADER_SIZE + 1;
                }
            }
        }
        assertThat(member).as("a batch inside an older segment, with a record after it").isPositive();
        flip(data(dir, id), member);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, id))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.CORRUPT_RECORDS);
            assertThat(f.detail()).contains("batch");
        });
    }

    @Test
    void missingDamagedAndOrphanHintsAndDebris() throws Exception {
        Files.delete(hint(dir, 1));
        flip(hint(dir, 2), 40);
        Files.write(hint(dir, 99), new byte[] {1, 2, 3});
        Files.write(dir.resolve("000000100.data.tmp"), new byte[] {4});
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(hint(dir, 1))).extracting(Finding::kind).containsExactly(Kind.HINT_MISSING);
        assertThat(r.findings(hint(dir, 2))).extracting(Finding::kind).containsExactly(Kind.HINT_UNUSABLE);
        assertThat(r.findings(hint(dir, 99))).extracting(Finding::kind).containsExactly(Kind.ORPHAN_HINT);
        assertThat(r.findings(dir.resolve("000000100.data.tmp"))).extracting(Finding::kind).containsExactly(Kind.DEBRIS);
        assertThat(r.segments().get(0).hint()).isEqualTo(HintState.MISSING);
        assertThat(r.segments().get(1).hint()).isEqualTo(HintState.UNUSABLE);
        assertThat(r.dataAtRisk()).isFalse();
    }

    @Test
    void aHintThatListsOnlyPartOfItsSegmentIsStale() throws Exception {
        byte[] old = Files.readAllBytes(hint(dir, segments));
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS)) {
            db.put("one more", b("record"));
        }
        Files.write(hint(dir, segments), old);
        VerifyReport r = BitCask.verify(dir);
        assertThat(kinds(r)).containsExactly(Kind.HINT_STALE);
    }

    @Test
    void oneDamagedHeaderCopyCostsNothingButIsReported() throws Exception {
        flip(data(dir, 1), RecordFormat.HEADER_BLOCK_SIZE + 20);
        flip(data(dir, 2), 3);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 1))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.HEADER_COPY_DAMAGED);
            assertThat(f.offset()).isEqualTo(RecordFormat.HEADER_BLOCK_SIZE);
        });
        assertThat(r.findings(data(dir, 2))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.HEADER_COPY_DAMAGED);
            assertThat(f.offset()).isZero();
        });
        assertThat(kinds(r)).hasSize(2);
    }

    @Test
    void bothHeaderCopiesDamagedMakeTheFileUnreadableAndOpenSkipsIt() throws Exception {
        flip(data(dir, 1), 20);
        flip(data(dir, 1), RecordFormat.HEADER_BLOCK_SIZE + 20);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 1))).extracting(Finding::kind).containsExactly(Kind.HEADER_UNREADABLE);
        assertThat(r.segments().get(0).hint()).isEqualTo(HintState.NOT_CHECKED);
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS.toBuilder().readOnly(true).build())) {
            assertThat(db.stats().segmentCount()).isEqualTo(segments - 1);
        }
    }

    @Test
    void aHeaderThatNamesAnotherSegmentIsAMismatch() throws Exception {
        byte[] h = Files.readAllBytes(data(dir, 1));
        byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
        RecordFormat.encodeFileHeader(header, 7, RecordFormat.headerSalt(h, 0));
        overwrite(data(dir, 1), 0, header);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 1))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.HEADER_MISMATCH);
            assertThat(f.detail()).contains("segment 7");
        });
    }

    @Test
    void aFileOfAnotherFormatVersionIsReportedAndOpenRefusesTheStore() throws Exception {
        writeVersion(data(dir, 2), 3);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(data(dir, 2))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.WRONG_VERSION);
            assertThat(f.detail()).contains("version 3");
        });
        assertThatThrownBy(() -> BitCask.open(dir, DamagedStore.OPTIONS)).isInstanceOf(BitCaskException.class)
                .hasMessageContaining("version 3");
    }

    /** Rewrites both header copies of {@code file} with another version and valid CRCs. */
    static void writeVersion(Path file, int version) throws Exception {
        byte[] h = java.util.Arrays.copyOf(Files.readAllBytes(file), RecordFormat.FILE_HEADER_SIZE);
        for (int at = 0; at < RecordFormat.FILE_HEADER_SIZE; at += RecordFormat.HEADER_BLOCK_SIZE) {
            RecordFormat.putShort(h, at + RecordFormat.HEADER_VERSION_OFFSET, version);
            RecordFormat.putInt(h, at + RecordFormat.HEADER_CRC_OFFSET, RecordFormat.crc(h, at, RecordFormat.HEADER_CRC_OFFSET));
        }
        overwrite(file, 0, h);
    }

    @Test
    void aNewestFileCutShortInsideItsHeaderIsReportedAsHoldingNothing() throws Exception {
        Path cut = data(dir, segments + 1);
        Files.write(cut, new byte[10]);
        VerifyReport r = BitCask.verify(dir);
        assertThat(r.findings(cut)).extracting(Finding::kind).containsExactly(Kind.HEADER_CUT_SHORT);
        assertThat(r.dataAtRisk()).isFalse();
    }

    @Test
    void aLiveWriterIsNamedAndKeepsItsLock() throws Exception {
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS)) {
            db.put("during", b("verify"));
            VerifyReport r = BitCask.verify(dir);
            assertThat(r.liveWriter()).isTrue();
            assertThatThrownBy(() -> BitCask.repair(dir, false, null, ProgressListener.NONE))
                    .isInstanceOf(BitCaskLockedException.class);
            // The OS lock must still hold against another process.
            Process child = ChildJvm.start(LockHolder.class, dir.toString(), "try");
            assertThat(ChildJvm.stdout(child).readLine()).startsWith("LOCKED");
            child.waitFor();
        }
        assertThat(BitCask.verify(dir).liveWriter()).isFalse();
    }

    @Test
    void aDirectoryWithoutAStoreIsNoStore() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertThat(BitCask.isStore(empty)).isFalse();
        assertThat(BitCask.isStore(tmp.resolve("missing"))).isFalse();
        assertThat(BitCask.isStore(dir)).isTrue();
        assertThatThrownBy(() -> BitCask.verify(empty)).isInstanceOf(BitCaskException.class).hasMessageContaining("not a BitCask store");
        assertThatThrownBy(() -> BitCask.verify(tmp.resolve("missing"))).isInstanceOf(BitCaskException.class)
                .hasMessageContaining("not a directory");
    }
}
