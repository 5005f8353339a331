package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.RepairReport;
import io.caskbench.bitcask.RepairReport.ActionKind;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.testing.DamagedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static io.caskbench.bitcask.testing.BatchStore.BATCH;
import static io.caskbench.bitcask.testing.BatchStore.BATCHES;
import static io.caskbench.bitcask.testing.BatchStore.build;
import static io.caskbench.bitcask.testing.BatchStore.damageValue;
import static io.caskbench.bitcask.testing.BatchStore.key;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch whose member is damaged after its hint was written (a flipped byte on a sealed segment) was
 * committed: its hint lists it, and every member but the damaged one reads. That is damage, not a torn
 * write, so nothing may make the members that check unreachable: not a repair that rewrites the hint,
 * not the hint that close writes for a reopened segment. Only the damaged key is lost, and a repair's
 * dry run names it.
 */
class DamagedBatchTest {

    /** A batch of 1,000 records (about 120 KB) fills a segment, so each batch has one of its own. */
    static final BitCaskOptions OPTIONS = BitCaskOptions.builder().segmentSize(128 << 10).build();

    @TempDir
    Path tmp;

    /** What a reader sees of every key written: the value's text, null when absent, or {@code <corrupt>}. */
    static Map<String, String> seen(Path dir, BitCaskOptions options) {
        Map<String, String> seen = new TreeMap<>();
        try (BitCask db = BitCask.open(dir, options.toBuilder().readOnly(true).build())) {
            for (int i = 0; i < BATCH * BATCHES; i++) {
                String v;
                try {
                    byte[] b = db.get(key(i));
                    v = b == null ? null : new String(b, StandardCharsets.UTF_8);
                } catch (BitCaskException e) {
                    v = "<corrupt>";
                }
                seen.put(key(i), v);
            }
        }
        return seen;
    }

    /** The keys whose value differs between {@code expected} and {@code actual}, with both values. */
    static Map<String, String> differences(Map<String, String> expected, Map<String, String> actual) {
        Map<String, String> d = new TreeMap<>();
        expected.forEach((k, v) -> {
            if (!java.util.Objects.equals(v, actual.get(k))) {
                d.put(k, v + " -> " + actual.get(k));
            }
        });
        return d;
    }

    private static String readOne(Path dir, String key) {
        try (BitCask db = BitCask.open(dir, OPTIONS.toBuilder().readOnly(true).build())) {
            byte[] v = db.get(key);
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        }
    }

    static long readable(Map<String, String> seen) {
        return seen.values().stream().filter(v -> v != null && !v.equals("<corrupt>")).count();
    }

    @Test
    void aRepairOfADamagedMemberOnASealedSegmentLosesOnlyThatKeyAndItsDryRunNamesIt() throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, OPTIONS);
        assertThat(DamagedStore.segments(dir)).isEqualTo(BATCHES);
        damageValue(DamagedStore.data(dir, 1), 500);
        Map<String, String> before = seen(dir, OPTIONS);
        assertThat(before.get(key(500))).isEqualTo("<corrupt>");
        assertThat(readable(before)).isEqualTo(BATCH * BATCHES - 1);

        RepairReport dry = BitCask.repair(dir, false, null, ProgressListener.NONE);
        assertThat(dry.actions()).extracting(RepairReport.Action::kind).containsExactly(ActionKind.WRITE_HINT);
        assertThat(dry.actions().get(0).leftOut()).as("the dry run names every key the repair takes out of the hint")
                .extracting(e -> new String(e.key(), StandardCharsets.UTF_8)).containsExactly(key(500));

        RepairReport r = BitCask.repair(dir, true, tmp.resolve("backup"), ProgressListener.NONE);
        assertThat(r.applied()).isTrue();
        Map<String, String> after = seen(dir, OPTIONS);
        Map<String, String> expected = new TreeMap<>(before);
        expected.put(key(500), null);
        assertThat(differences(expected, after)).as("every key that read before reads the same after the repair").isEmpty();
        try (BitCask db = BitCask.open(dir, OPTIONS.toBuilder().readOnly(true).build())) {
            assertThat(db.size()).isEqualTo(BATCH * BATCHES - 1);
        }
        assertThat(r.after().findings()).extracting(VerifyReport.Finding::kind).containsExactly(Kind.CORRUPT_RECORDS);
        assertThat(BitCask.repair(dir, false, null, ProgressListener.NONE).actions()).as("a second repair").isEmpty();
    }

    @Test
    void aMergeCopiesTheMembersThatAHintMadeReadable() throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, OPTIONS);
        damageValue(DamagedStore.data(dir, 1), 500);
        Map<String, String> before = seen(dir, OPTIONS);
        try (BitCask db = BitCask.open(dir, OPTIONS)) {
            db.merge(MergeScope.ALL);
        }
        Map<String, String> expected = new TreeMap<>(before);
        expected.put(key(500), null);
        assertThat(differences(expected, seen(dir, OPTIONS))).as("what reads after a merge").isEmpty();
        assertThat(BitCask.verify(dir).clean()).as("the merge left the damage behind").isTrue();
    }

    @Test
    void theHintThatCloseWritesForAReopenedSegmentKeepsADamagedBatchsMembersThatCheck() throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, OPTIONS);
        damageValue(DamagedStore.data(dir, BATCHES), BATCH + 500); // the newest segment, which open reopens
        Map<String, String> before = seen(dir, OPTIONS);
        assertThat(readable(before)).isEqualTo(BATCH * BATCHES - 1);

        try (BitCask db = BitCask.open(dir, OPTIONS)) {
            db.put("after", new byte[] {1});
        }
        Map<String, String> expected = new TreeMap<>(before);
        expected.put(key(BATCH + 500), null); // the hint close writes lists no record that fails, as for any record
        expected.put("after", "\u0001");
        Map<String, String> after = seen(dir, OPTIONS);
        after.put("after", readOne(dir, "after"));
        assertThat(differences(expected, after)).as("what reads after a read-write open and close").isEmpty();
        assertThat(BitCask.verify(dir).findings()).extracting(VerifyReport.Finding::kind)
                .as("the hint close wrote agrees with the data").containsExactly(Kind.CORRUPT_RECORDS);
    }

    @Test
    void aRepairKeepsADamagedBatchAtTheEndOfTheNewestSegmentThatItsHintLists() throws IOException {
        Path dir = tmp.resolve("db");
        build(dir, OPTIONS);
        damageValue(DamagedStore.data(dir, BATCHES), BATCH + 500);
        Map<String, String> before = seen(dir, OPTIONS);

        RepairReport r = BitCask.repair(dir, true, tmp.resolve("backup"), ProgressListener.NONE);
        assertThat(r.actions()).extracting(RepairReport.Action::kind).as("open would not cut there: the hint covers it")
                .containsExactly(ActionKind.WRITE_HINT);
        Map<String, String> expected = new TreeMap<>(before);
        expected.put(key(BATCH + 500), null);
        assertThat(differences(expected, seen(dir, OPTIONS))).isEmpty();
        assertThat(BitCask.repair(dir, false, null, ProgressListener.NONE).actions()).as("a second repair").isEmpty();
    }
}
