package io.caskbench.bitcask;

import io.caskbench.bitcask.RepairReport.ActionKind;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.DamagedStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.caskbench.bitcask.testing.Bytes.overwrite;
import static io.caskbench.bitcask.testing.Bytes.truncate;
import static io.caskbench.bitcask.testing.DamagedStore.data;
import static io.caskbench.bitcask.testing.DamagedStore.flip;
import static io.caskbench.bitcask.testing.DamagedStore.hint;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BitCask#repair} does what open would do, once and for good: a dry run changes nothing,
 * every file it changes is backed up first, what it can fix leaves verify clean, and a reader sees
 * the same data before and after.
 */
class RepairTest {

    /** What repair leaves for a person or a merge: it never rewrites or drops a record. */
    private static final Set<Kind> UNREPAIRABLE = EnumSet.of(Kind.CORRUPT_RECORDS, Kind.TORN_TAIL, Kind.HEADER_UNREADABLE,
            Kind.WRONG_VERSION, Kind.UNREADABLE, Kind.KEPT_TAIL);

    @TempDir
    Path tmp;

    private Path dir;
    private int segments;

    @BeforeEach
    void build() throws Exception {
        dir = tmp.resolve("db");
        DamagedStore.build(dir);
        segments = DamagedStore.segments(dir);
    }

    private RepairReport apply() {
        return BitCask.repair(dir, true, dir.resolve("repair-backup"), ProgressListener.NONE);
    }

    @Test
    void aCleanStoreNeedsNothing() throws Exception {
        Map<String, String> before = DamagedStore.fingerprint(dir);
        RepairReport r = apply();
        assertThat(r.actions()).isEmpty();
        assertThat(r.unrepaired()).isEmpty();
        assertThat(r.applied()).isFalse();
        assertThat(r.complete()).isTrue();
        assertThat(DamagedStore.fingerprint(dir)).isEqualTo(before);
        assertThat(dir.resolve("repair-backup")).doesNotExist();
    }

    @Test
    void hintsDebrisAndHeaderCopiesAreRepairedExactlyAsTheStoreWroteThem() throws Exception {
        Map<String, String> original = DamagedStore.fingerprint(dir);
        byte[] hint2 = Files.readAllBytes(hint(dir, 2));
        Files.delete(hint(dir, 1));
        flip(hint(dir, 2), 50);
        flip(data(dir, 3), RecordFormat.HEADER_BLOCK_SIZE + 9);
        flip(data(dir, 4), 9);
        Files.write(hint(dir, 99), new byte[] {1});
        Files.write(dir.resolve("000000100.data.tmp"), new byte[] {2});
        Map<String, String> damaged = DamagedStore.fingerprint(dir);

        RepairReport dry = BitCask.repair(dir, false, null, ProgressListener.NONE);
        assertThat(dry.applied()).isFalse();
        assertThat(dry.actions()).extracting(RepairReport.Action::kind).containsExactly(
                ActionKind.DELETE, ActionKind.DELETE, ActionKind.REWRITE_HEADER, ActionKind.REWRITE_HEADER,
                ActionKind.WRITE_HINT, ActionKind.WRITE_HINT);
        assertThat(DamagedStore.fingerprint(dir)).as("a dry run changes nothing").isEqualTo(damaged);

        RepairReport r = apply();
        assertThat(r.applied()).isTrue();
        assertThat(r.after().clean()).isTrue();
        assertThat(r.complete()).isTrue();
        assertThat(DamagedStore.fingerprint(dir)).isEqualTo(original);
        assertThat(DamagedStore.fingerprint(dir.resolve("repair-backup")).keySet())
                .containsExactlyInAnyOrder("000000002.hint", "000000003.data", "000000004.data", "000000099.hint",
                        "000000100.data.tmp");
        assertThat(Files.readAllBytes(hint(dir, 2))).isEqualTo(hint2);
        assertThat(BitCask.verify(dir).clean()).as("the backup directory is no part of the store").isTrue();
    }

    @Test
    void aRepairThatOnlyWritesNewFilesNeedsNoBackup() throws Exception {
        Files.delete(hint(dir, 2));
        RepairReport r = apply();
        assertThat(r.actions()).extracting(RepairReport.Action::kind).containsExactly(ActionKind.WRITE_HINT);
        assertThat(r.applied()).isTrue();
        assertThat(r.backupDirectory()).isNull();
        assertThat(dir.resolve("repair-backup")).doesNotExist();
        assertThat(r.after().clean()).isTrue();
    }

    @Test
    void theNewestSegmentsTornTailIsCutAndItsHintRewritten() throws Exception {
        Path newest = data(dir, segments);
        truncate(newest, Files.size(newest) - 7);
        long damagedSize = Files.size(newest);
        long cut = BitCask.verify(dir).findings(Kind.TORN_TAIL).get(0).offset();
        RepairReport r = apply();
        assertThat(r.actions()).extracting(RepairReport.Action::kind).containsExactly(ActionKind.TRUNCATE, ActionKind.WRITE_HINT);
        assertThat(r.after().clean()).as("a torn record holds nothing to keep").isTrue();
        assertThat(dir.resolve(newest.getFileName() + ".tail-" + cut)).doesNotExist();
        assertThat(Files.size(newest)).isEqualTo(cut);
        assertThat(Files.size(dir.resolve("repair-backup").resolve(newest.getFileName()))).isEqualTo(damagedSize);
    }

    @Test
    void corruptRecordsAreLeftForAMergeWhichDropsThem() throws Exception {
        long size = Files.size(data(dir, 2));
        overwrite(data(dir, 2), size / 2, new byte[40]);
        RepairReport r = apply();
        assertThat(r.unrepaired()).extracting(Finding::kind).containsExactly(Kind.CORRUPT_RECORDS);
        assertThat(r.actions()).extracting(RepairReport.Action::kind).containsExactly(ActionKind.WRITE_HINT);
        assertThat(r.after().findings()).extracting(Finding::kind).containsExactly(Kind.CORRUPT_RECORDS);
        assertThat(r.complete()).isFalse();
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS)) {
            db.merge();
        }
        assertThat(BitCask.verify(dir).findings()).isEmpty();
    }

    @Test
    void aFileWithoutAReadableHeaderIsLeftAsItIs() throws Exception {
        flip(data(dir, 1), 3);
        flip(data(dir, 1), RecordFormat.HEADER_BLOCK_SIZE + 3);
        byte[] before = Files.readAllBytes(data(dir, 1));
        RepairReport r = apply();
        assertThat(r.unrepaired()).extracting(Finding::kind).containsExactly(Kind.HEADER_UNREADABLE);
        assertThat(r.actions()).isEmpty();
        assertThat(Files.readAllBytes(data(dir, 1))).isEqualTo(before);
    }

    @Test
    void aStoreOfAnotherVersionIsNotTouched() throws Exception {
        VerifyTest.writeVersion(data(dir, 1), 3);
        Files.delete(hint(dir, 2));
        Map<String, String> before = DamagedStore.fingerprint(dir);
        RepairReport r = apply();
        assertThat(r.actions()).isEmpty();
        assertThat(r.unrepaired()).extracting(Finding::kind).contains(Kind.WRONG_VERSION, Kind.HINT_MISSING);
        assertThat(DamagedStore.fingerprint(dir)).isEqualTo(before);
    }

    @Test
    void aNewestFileCutShortGetsANewHeaderAndTheStoreOpens() throws Exception {
        Path cut = data(dir, segments + 1);
        Files.write(cut, new byte[] {(byte) 0x42, 0x43});
        RepairReport r = apply();
        assertThat(r.after().clean()).isTrue();
        assertThat(Files.size(cut)).isEqualTo(RecordFormat.FILE_HEADER_SIZE);
        try (BitCask db = BitCask.open(dir, DamagedStore.OPTIONS)) {
            db.put("new", new byte[] {1});
        }
        assertThat(BitCask.verify(dir).clean()).isTrue();
    }

    static Stream<Long> seeds() {
        long base = Long.getLong("caskbench.seed", System.nanoTime());
        return LongStream.range(0, 24).mapToObj(i -> base + i);
    }

    /**
     * Random damage as the corruption tests make it: verify always finds it, and after a repair every
     * key that read before reads the same, and one that was absent stays so unless the repair names its
     * failing record: a rewritten hint leaves out only records that fail their check. A second repair has
     * nothing left to do.
     */
    @ParameterizedTest(name = "seed={0}")
    @MethodSource("seeds")
    void randomDamageIsFoundAndRepairedWithoutChangingWhatReadersSee(long seed) throws Exception {
        DamagedStore.damageAtRandom(dir, new Random(seed));
        VerifyReport before = BitCask.verify(dir);
        assertThat(before.clean()).as("seed %d: verify finds the damage", seed).isFalse();
        Map<String, String> seenBefore = DamagedStore.contents(dir, tmp.resolve("before"));

        RepairReport r = apply();
        Map<String, String> seenAfter = DamagedStore.contents(dir, tmp.resolve("after"));
        Set<String> leftOut = new TreeSet<>();
        r.actions().forEach(a -> a.leftOut().forEach(e -> leftOut.add(new String(e.key(), StandardCharsets.UTF_8))));
        seenBefore.forEach((key, value) -> {
            String now = seenAfter.get(key);
            if (value != null && !"<corrupt>".equals(value)) {
                assertThat(now).as("seed %d: %s read before the repair", seed, key).isEqualTo(value);
            } else if (value == null && now != null) {
                // a failing delete, or a record whose key bytes are damaged, which a lookup passes by
                assertThat(leftOut).as("seed %d: the repair names %s, which reads again", seed, key).contains(key);
            } // a read that threw may have met another key's failing record on its way: the repair names that one
        });
        VerifyReport after = r.applied() ? r.after() : before;
        assertThat(after.findings()).as("seed %d: what repair leaves", seed)
                .allSatisfy(f -> assertThat(f.kind()).isIn(UNREPAIRABLE));
        assertThat(after.findings()).filteredOn(f -> f.kind() != Kind.KEPT_TAIL).extracting(Finding::kind)
                .containsExactlyInAnyOrderElementsOf(r.unrepaired().stream().map(Finding::kind).toList());
        assertThat(after.findings(Kind.KEPT_TAIL)).as("seed %d: a tail is kept only for one cut", seed).hasSizeLessThanOrEqualTo(
                (int) r.actions().stream().filter(a -> a.kind() == RepairReport.ActionKind.TRUNCATE).count());
        RepairReport again = BitCask.repair(dir, false, null, ProgressListener.NONE);
        assertThat(again.actions()).as("seed %d: a second repair", seed).isEmpty();
    }
}
