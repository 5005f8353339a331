package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentScanner;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EngineParts;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.LogBatch;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Recovery} of directories prepared by hand: temporary files left by a crashed merge or hint
 * write are removed (or, read-only, left) and never read as data; a hint file that covers the first
 * part of a segment is used and the records after it are found by a scan, with no key lost and none
 * invented; the reopened newest segment takes appends at its valid end, and what was written before
 * and after is found by the next open. A seeded case names its seed on failure; rerun it with
 * {@code -Dcaskbench.seed=<seed>}.
 */
@Timeout(120)
class RecoveryTest {

    /** Small, so that a few records fill a segment. */
    private static final long SMALL_SEGMENT = 4096;
    private static final long LARGE_SEGMENT = 1 << 16;
    private static final int HEADER = RecordFormat.FILE_HEADER_SIZE;

    @TempDir
    Path tmp;

    @Test
    void tempDebrisOfACrashedMergeOrHintWriteIsRemovedAndNeverRead() throws IOException {
        Path dir = tmp.resolve("store");
        Map<String, String> model = storeWithDebris(dir);
        List<Path> debris = SegmentFiles.tempFiles(dir);
        assertThat(debris).hasSize(2);
        long newestId = SegmentFiles.dataIds(dir).get(SegmentFiles.dataIds(dir).size() - 1);

        try (EngineParts parts = EngineParts.of(dir, new FileChannelBackend(), SMALL_SEGMENT, false)) {
            Recovery.Recovered found = parts.recover();
            assertThat(SegmentFiles.tempFiles(dir)).as("the debris is gone").isEmpty();
            assertThat(text(parts.contents())).as("no record of the debris is read").isEqualTo(model);
            assertThat(found.active().id()).as("the newest data file, not the merge's output").isEqualTo(newestId);
            assertThat(found.nextId()).as("ids go on from the data files, not from the debris").isEqualTo(newestId + 1);
        }
    }

    @Test
    void tempDebrisIsLeftAndNeverReadByAReadOnlyOpen() throws IOException {
        Path dir = tmp.resolve("store");
        Map<String, String> model = storeWithDebris(dir);
        List<Path> debris = SegmentFiles.tempFiles(dir);

        try (EngineParts parts = EngineParts.of(dir, new FileChannelBackend(), SMALL_SEGMENT, true)) {
            Recovery.Recovered found = parts.recover();
            assertThat(SegmentFiles.tempFiles(dir)).as("a read-only open changes nothing").containsExactlyInAnyOrderElementsOf(debris);
            assertThat(found.active()).isNull();
            assertThat(text(parts.contents())).as("no record of the debris is read").isEqualTo(model);
        }
    }

    /**
     * A store of three segments, and beside it what crashes leave: the output of a merge that never
     * reached its rename (valid records, among them a key the store never had and another value of
     * one it has), a hint file that never reached its rename, and a hint file cut short. Returns
     * what the store holds.
     */
    private Map<String, String> storeWithDebris(Path dir) throws IOException {
        Path other = tmp.resolve("other");
        try (EngineParts parts = EngineParts.of(other, new FileChannelBackend(), SMALL_SEGMENT, false)) {
            LogWriter log = parts.open();
            log.put(b("ghost"), b("never written to the store"), 0);
            log.put(b("a"), b("a merge's copy that never landed"), 0);
            parts.hints.write(log.active());
        }
        Map<String, String> model = new TreeMap<>();
        try (EngineParts parts = EngineParts.of(dir, new FileChannelBackend(), SMALL_SEGMENT, false)) {
            LogWriter log = parts.open();
            for (int i = 0; parts.table.inOrder().size() < 3; i++) {
                String key = i % 3 == 0 ? "a" : "k" + i;
                String value = key + "-" + i + "-" + "x".repeat(300);
                log.put(b(key), b(value), 0);
                model.put(key, value);
            }
            parts.hints.write(parts.table.inOrder().get(0));
        }
        long newest = SegmentFiles.dataIds(dir).get(2);
        Files.copy(SegmentFiles.dataFile(other, 1), SegmentFiles.tempFile(SegmentFiles.dataFile(dir, newest + 1)));
        Files.copy(SegmentFiles.hintFile(other, 1), SegmentFiles.tempFile(SegmentFiles.hintFile(dir, 2)));
        Path hint = SegmentFiles.hintFile(dir, 1);
        Bytes.truncate(hint, Files.size(hint) / 2);
        return model;
    }

    @Test
    void aHintCoveringTheFirstPartOfASealedSegmentIsUsedAndItsTailIsScanned() throws IOException {
        partialHintAndTail(false);
    }

    @Test
    void aHintCoveringTheFirstPartOfTheNewestSegmentIsUsedAndItsTailIsScanned() throws IOException {
        partialHintAndTail(true);
    }

    /**
     * Writes a segment in two parts, the second overwriting, deleting and adding keys (a batch
     * among them), gives it a hint file that lists the first part only, and checks that a
     * recovery finds exactly what was written. Unless {@code newest}, a later segment follows.
     */
    private void partialHintAndTail(boolean newest) throws IOException {
        Path dir = tmp.resolve("store");
        Map<String, String> model = new TreeMap<>();
        long covered;
        long salt;
        try (EngineParts parts = EngineParts.of(dir, new FileChannelBackend(), LARGE_SEGMENT, false)) {
            LogWriter log = parts.open();
            for (int i = 0; i < 20; i++) {
                put(log, model, "k" + i, "first-" + i);
            }
            covered = log.active().end();
            salt = log.active().salt();
            for (int i = 0; i < 5; i++) {
                put(log, model, "k" + i, "second-" + i);
            }
            for (int i = 5; i < 8; i++) {
                log.delete(b("k" + i));
                model.remove("k" + i);
            }
            for (int i = 0; i < 5; i++) {
                put(log, model, "t" + i, "tail-" + i);
            }
            Map<String, byte[]> members = new LinkedHashMap<>();
            members.put("k8", b("batch-8"));
            members.put("k9", null);
            members.put("t5", b("batch-t5"));
            LogBatch batch = new LogBatch(members);
            log.appendBatch(batch, batch.length(), true);
            model.put("k8", "batch-8");
            model.remove("k9");
            model.put("t5", "batch-t5");
            if (!newest) {
                long room = LARGE_SEGMENT - log.active().end();
                put(log, model, "big", "b".repeat((int) room));
                put(log, model, "k1", "third-1");
                assertThat(log.activeSegmentId()).as("the big record went to the next segment").isEqualTo(2);
            }
        }
        Path data = SegmentFiles.dataFile(dir, 1);
        byte[] hint = hintUpTo(data, salt, covered);
        HintFormat.Validation v = HintFormat.validate(hint, 1, salt, Files.size(data));
        assertThat(v.usable()).as(v.reason()).isTrue();
        assertThat(v.covered()).as("the hint leaves a tail").isEqualTo(covered).isLessThan(Files.size(data));
        Files.write(SegmentFiles.hintFile(dir, 1), hint);

        for (boolean readOnly : new boolean[] {true, false}) {
            try (EngineParts parts = EngineParts.of(dir, new FileChannelBackend(), LARGE_SEGMENT, readOnly)) {
                parts.recover();
                assertThat(text(parts.contents())).as("read-only %s: every key, each at its last value, and no other", readOnly)
                        .isEqualTo(model);
                assertThat(parts.table.inOrder().get(0).end()).as("segment 1 ends after its last record").isEqualTo(Files.size(data));
            }
        }
    }

    /** A hint file for {@code data} that lists its records up to {@code covered} and no further. */
    private static byte[] hintUpTo(Path data, long salt, long covered) {
        HintFormat.Builder builder = new HintFormat.Builder(1, salt);
        SegmentReader reader = new FileChannelBackend().openReadOnly(data);
        try {
            new SegmentScanner(reader, data, covered, salt).scan(HEADER, builder::add);
        } finally {
            reader.close();
        }
        return builder.finish(covered);
    }

    @EveryBackend
    void theReopenedNewestSegmentTakesAppendsAtItsValidEndAndKeepsEverything(Backend backend) throws IOException {
        long seed = Seeds.base();
        for (int torn : new int[] {0, 37}) {
            Path dir = tmp.resolve(backend + "-" + torn);
            Random rnd = new Random(seed + torn);
            Map<String, String> model = new TreeMap<>();
            try (EngineParts parts = EngineParts.of(dir, Backends.segmentBackend(backend), LARGE_SEGMENT, false)) {
                LogWriter log = parts.open();
                for (int i = 0; i < 12; i++) {
                    put(log, model, "a" + rnd.nextInt(8), "before-" + i + "-" + "v".repeat(rnd.nextInt(200)));
                }
            }
            Path data = SegmentFiles.dataFile(dir, 1);
            long validEnd = Files.size(data);
            Bytes.overwrite(data, validEnd, Bytes.random(rnd, torn)); // a write torn by a crash
            String at = "seed " + seed + ", " + backend + ", " + torn + " torn bytes";

            try (EngineParts parts = EngineParts.of(dir, Backends.segmentBackend(backend), LARGE_SEGMENT, false)) {
                LogWriter log = parts.open();
                Segment active = log.active();
                assertThat(active.id()).as(at + ": the newest segment goes on").isEqualTo(1);
                assertThat(active.end()).as(at + ": at its valid end").isEqualTo(validEnd);
                for (int i = 0; i < 12; i++) {
                    put(log, model, (i % 2 == 0 ? "a" : "b") + rnd.nextInt(8), "after-" + i + "-" + "w".repeat(rnd.nextInt(200)));
                }
                List<EngineParts.Rec> recs = EngineParts.records(active, active.end());
                long pos = HEADER;
                for (EngineParts.Rec r : recs) {
                    assertThat(r.offset()).as(at + ": %s follows the record before it", r).isEqualTo(pos);
                    pos += r.length();
                }
                assertThat(recs).as(at + ": the records before and after the reopen").hasSize(24);
                assertThat(pos).isEqualTo(active.end());
            }

            try (EngineParts parts = EngineParts.of(dir, Backends.segmentBackend(backend), LARGE_SEGMENT, false)) {
                parts.open();
                assertThat(text(parts.contents())).as(at + ": after another reopen").isEqualTo(model);
                assertThat(SegmentFiles.dataIds(dir)).as(at + ": no segment was added").containsExactly(1L);
            }
        }
    }

    private static void put(LogWriter log, Map<String, String> model, String key, String value) {
        log.put(b(key), b(value), 0);
        model.put(key, value);
    }

    private static Map<String, String> text(Map<String, byte[]> contents) {
        Map<String, String> out = new TreeMap<>();
        contents.forEach((k, v) -> out.put(k, new String(v, StandardCharsets.UTF_8)));
        return out;
    }
}
