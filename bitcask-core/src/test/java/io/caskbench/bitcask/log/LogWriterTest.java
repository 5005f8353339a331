package io.caskbench.bitcask.log;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EngineParts;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.LogBatch;
import io.caskbench.bitcask.testing.Seeds;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link LogWriter} against real segments in a temporary directory, wired to the parts a store
 * gives it: a record that does not fit starts the next segment and none straddles an end; the ids
 * a merge reserves are skipped by every later rollover; a batch is all or nothing, whichever
 * backend call fails, and readers are held off while its keys are published. A seeded case names
 * its seed on failure; rerun it with {@code -Dcaskbench.seed=<seed>}.
 */
@Timeout(120)
class LogWriterTest {

    /** Small, so that a few dozen records roll over several times. */
    private static final long SEGMENT_SIZE = 4096;
    private static final int HEADER = RecordFormat.FILE_HEADER_SIZE;

    @TempDir
    Path tmp;

    @EveryBackend
    void aRecordThatDoesNotFitStartsTheNextSegmentAndNoneStraddlesAnEnd(Backend backend) {
        long seed = Seeds.base();
        Random rnd = new Random(seed);
        Map<String, byte[]> written = new LinkedHashMap<>();
        try (EngineParts parts = EngineParts.of(tmp, Backends.segmentBackend(backend), SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            for (int i = 0; i < 60; i++) {
                byte[] value = Bytes.random(rnd, 1 + rnd.nextInt(900));
                log.put(b("k" + i), value, 0);
                written.put("k" + i, value);
            }
            List<Segment> segs = parts.table.inOrder();
            assertThat(segs.size()).as("seed %d: several rollovers", seed).isGreaterThan(5);
            List<String> order = new ArrayList<>();
            for (int s = 0; s < segs.size(); s++) {
                Segment seg = segs.get(s);
                assertThat(seg.id()).as("seed %d: ids follow one another", seed).isEqualTo(s + 1);
                List<EngineParts.Rec> recs = EngineParts.records(seg, seg.end());
                long at = HEADER;
                for (EngineParts.Rec r : recs) {
                    assertThat(r.offset()).as("seed %d: %s follows the record before it", seed, r).isEqualTo(at);
                    at += r.length();
                    order.add(r.key());
                }
                assertThat(at).as("seed %d: no record of segment %d straddles its end", seed, seg.id()).isLessThanOrEqualTo(SEGMENT_SIZE);
                assertThat(seg.end()).as("seed %d: segment %d ends after its last record", seed, seg.id()).isEqualTo(at);
                if (s < segs.size() - 1) {
                    assertThat(seg.writer().size()).as("seed %d: sealed segment %d is cut at its end", seed, seg.id()).isEqualTo(at);
                    EngineParts.Rec next = EngineParts.records(segs.get(s + 1), segs.get(s + 1).end()).get(0);
                    assertThat(next.offset()).isEqualTo(HEADER);
                    assertThat(at + next.length()).as("seed %d: %s did not fit in segment %d", seed, next, seg.id())
                            .isGreaterThan(SEGMENT_SIZE);
                }
            }
            assertThat(order).as("seed %d: the records in put order", seed).containsExactlyElementsOf(written.keySet());
            assertThat(log.activeSegmentId()).isEqualTo(segs.get(segs.size() - 1).id());
            written.forEach((k, v) -> assertThat(parts.get(k)).as("seed %d: %s", seed, k).isEqualTo(v));
        }
    }

    @Test
    void aRecordThatEndsExactlyAtTheSegmentsEndStaysInIt() {
        try (EngineParts parts = EngineParts.of(tmp, new FileChannelBackend(), SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            log.put(b("first"), new byte[100], 0);
            long room = SEGMENT_SIZE - parts.table.inOrder().get(0).end();
            int fill = (int) (room - RecordFormat.recordLength(0, 4, 0));
            log.put(b("fill"), Bytes.filled(fill, 7), 0);

            Segment first = parts.table.inOrder().get(0);
            assertThat(parts.table.inOrder()).as("the record that fits exactly did not roll over").hasSize(1);
            assertThat(first.end()).isEqualTo(SEGMENT_SIZE);

            log.put(b("next"), new byte[] {1}, 0);
            assertThat(parts.table.inOrder()).hasSize(2);
            assertThat(first.writer().size()).isEqualTo(SEGMENT_SIZE);
            Segment second = parts.table.inOrder().get(1);
            assertThat(second.id()).isEqualTo(2);
            assertThat(EngineParts.records(second, second.end())).containsExactly(
                    new EngineParts.Rec(HEADER, RecordFormat.recordLength(0, 4, 1), "next"));
            assertThat(parts.get("fill")).isEqualTo(Bytes.filled(fill, 7));
        }
    }

    @Test
    void putsAndBatchesPastTheWriteLimitAreRefusedBeforeAnyByteAndDeletesAndSealsPass() {
        try (EngineParts parts = EngineParts.of(tmp, new FileChannelBackend(), SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            int len = RecordFormat.recordLength(0, 2, 100);
            long first = log.put(b("k1"), new byte[100], 0);
            parts.limit.set(first + len); // room for exactly one more such put
            long second = log.put(b("k2"), new byte[100], 0);
            assertThat(second).isEqualTo(first + len);

            assertThatThrownBy(() -> log.put(b("k3"), new byte[100], 0)).isInstanceOf(WriteLimit.Reached.class);
            assertThatThrownBy(() -> append(log, Map.of("k4", new byte[1]))).isInstanceOf(WriteLimit.Reached.class);
            assertThat(log.reserved()).as("nothing reserved for the refused writes").isEqualTo(second);
            assertThat(parts.get("k3")).isNull();
            assertThat(parts.get("k4")).isNull();

            assertThat(log.delete(b("k1")) & LogWriter.REMOVED).as("a delete passes the limit").isNotZero();
            LogBatch deletesOnly = new LogBatch(Collections.singletonMap("k2", null));
            log.appendBatch(deletesOnly, deletesOnly.length(), false);
            assertThat(parts.get("k2")).as("a batch without a put passes the limit").isNull();
            assertThat(log.sealForMerge(all -> all)).as("a merge's seal passes the limit").isNotNull();

            parts.limit.set(Long.MAX_VALUE);
            log.put(b("k3"), new byte[100], 0);
            assertThat(parts.get("k3")).hasSize(100);
        }
    }

    @Test
    void theIdsAMergeReservesAreSkippedByEveryLaterRolloverAndNeverReused() {
        long firstOut;
        int reserved;
        try (EngineParts parts = EngineParts.of(tmp, new FileChannelBackend(), SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            fillSegments(log, "a", 3);
            long active = log.activeSegmentId();

            assertThat(log.sealForMerge(all -> List.of())).as("nothing chosen, nothing sealed").isNull();
            assertThat(log.activeSegmentId()).isEqualTo(active);

            LogWriter.Seal seal = log.sealForMerge(all -> all.subList(0, 2));
            firstOut = seal.firstOutputId();
            reserved = seal.reservedIds();
            assertThat(seal.inputs()).extracting(Segment::id).containsExactly(1L, 2L);
            assertThat(seal.oldestKeptId()).isEqualTo(3);
            assertThat(seal.segmentsInStore()).as("ids 1 to the active one").isEqualTo((int) active);
            assertThat(firstOut).as("the outputs sort after every segment there is, the sealed one included").isEqualTo(active + 1);
            assertThat(reserved).isGreaterThanOrEqualTo(seal.inputs().size());
            assertThat(log.activeSegmentId()).as("the segment after the gap").isEqualTo(firstOut + reserved);

            fillSegments(log, "b", 3);
            assertIdsSkip(parts, firstOut, reserved);

            LogWriter.Seal again = log.sealForMerge(all -> all.subList(0, 1));
            assertThat(again.firstOutputId()).as("a second gap comes after the first").isGreaterThan(firstOut + reserved);
            assertThat(log.activeSegmentId()).isEqualTo(again.firstOutputId() + again.reservedIds());
        }
        try (EngineParts parts = EngineParts.of(tmp, new FileChannelBackend(), SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            fillSegments(log, "c", 2);
            assertIdsSkip(parts, firstOut, reserved);
            for (int i = 0; i < 3; i++) {
                assertThat(parts.get("a" + i)).as("a%d after a reopen", i).isNotNull();
            }
        }
    }

    /** Puts records of about a quarter of a segment until {@code segments} more rollovers have happened. */
    private static void fillSegments(LogWriter log, String prefix, int segments) {
        long until = log.activeSegmentId() + segments;
        for (int i = 0; log.activeSegmentId() < until; i++) {
            log.put(b(prefix + i), Bytes.filled(1000, i), 0);
        }
    }

    private static void assertIdsSkip(EngineParts parts, long firstOut, int reserved) {
        for (Segment seg : parts.table.inOrder()) {
            assertThat(seg.id() >= firstOut && seg.id() < firstOut + reserved).as("segment %d takes a reserved id", seg.id()).isFalse();
        }
        for (long id = firstOut; id < firstOut + reserved; id++) {
            assertThat(SegmentFiles.dataFile(parts.files.path(), id)).as("reserved id %d", id).doesNotExist();
        }
    }

    @Test
    void aBatchFailingAtAnyBackendCallLeavesNoneOfItsRecordsVisible() {
        long calls = batchCalls(tmp.resolve("clean"), 0);
        assertThat(calls).as("the batch rolls over, writes, and reads the keys' older records").isGreaterThanOrEqualTo(7);
        for (long k = 1; k <= calls; k++) {
            batchCalls(tmp.resolve("at-" + k), k);
        }
    }

    /**
     * Writes a batch that needs a new segment and whose keys have older records, failing its
     * {@code failAt}-th backend call (none when 0), then checks that readers see all of it or none,
     * before and after a reopen; returns the backend calls the batch made.
     */
    private static long batchCalls(Path dir, long failAt) {
        FaultyBackend faulty = new FaultyBackend(new FileChannelBackend());
        faulty.skipRealForces = true;
        Map<String, byte[]> before = new LinkedHashMap<>();
        Map<String, byte[]> after = new LinkedHashMap<>();
        List<String> old;
        List<String> batched;
        long made;
        boolean failed;
        try (EngineParts parts = EngineParts.of(dir, faulty, SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            for (String k : List.of("a", "b", "c")) {
                before.put(k, b("old-" + k));
                log.put(b(k), before.get(k), 0);
            }
            before.put("d", null);
            long room = SEGMENT_SIZE - log.active().end();
            log.put(b("pad"), new byte[(int) room - RecordFormat.recordLength(0, 3, 0) - 8], 0); // the batch needs the next segment
            after.put("a", b("new-a"));
            after.put("b", null);
            after.put("c", b("new-c"));
            after.put("d", b("new-d"));
            old = text(before.values());
            batched = text(after.values());
            faulty.countOnly(Thread.currentThread());
            long start = faulty.count();
            if (failAt > 0) {
                faulty.failCall(failAt);
            }
            failed = false;
            try {
                append(log, after);
            } catch (BitCaskException e) {
                failed = true;
            }
            made = faulty.count() - start;
            String at = failAt == 0 ? "a clean batch" : "call " + failAt + " (" + faulty.fired() + ") failing";
            faulty.failCall(Long.MAX_VALUE);
            assertThat(failed).as(at).isEqualTo(failAt > 0);
            assertThat(seen(parts, after.keySet())).as(at).isEqualTo(failed ? old : batched);
        }
        try (EngineParts parts = EngineParts.of(dir, new FileChannelBackend(), SEGMENT_SIZE, true)) {
            parts.recover();
            assertThat(seen(parts, after.keySet())).as("reopened after call %d failed", failAt).isIn(old, batched);
        }
        return made;
    }

    @Test
    void readersAreHeldOffWhileABatchsKeysArePublished() {
        WatchingBackend watching = new WatchingBackend(new FileChannelBackend());
        try (EngineParts parts = EngineParts.of(tmp, watching, SEGMENT_SIZE, false)) {
            LogWriter log = parts.open();
            log.put(b("a"), b("old-a"), 0);
            log.put(b("b"), b("old-b"), 0);
            Thread writer = Thread.currentThread();
            List<Boolean> stableWhileChecking = new ArrayList<>();
            watching.beforeRead = name -> {
                if (Thread.currentThread() == writer) {
                    stableWhileChecking.add(BatchFence.stable(parts.fence.version()));
                }
            };
            Map<String, byte[]> after = new LinkedHashMap<>();
            after.put("a", b("new-a"));
            after.put("b", b("new-b"));
            long version = parts.fence.version();
            append(log, after);
            watching.beforeRead = name -> { };

            assertThat(stableWhileChecking).as("the key checks read the keys' older records").isNotEmpty()
                    .as("a reader that overlaps them is repeated").containsOnly(false);
            assertThat(BatchFence.stable(parts.fence.version())).isTrue();
            assertThat(parts.fence.unchanged(version)).as("a read from before the batch is repeated").isFalse();
            assertThat(parts.get("a")).isEqualTo(b("new-a"));
            assertThat(parts.get("b")).isEqualTo(b("new-b"));
        }
    }

    @Test
    void aReaderThatSawOneKeyOfABatchSeesAllOfItsKeysAfterwards() throws Exception {
        long seed = Seeds.base();
        Random rnd = new Random(seed);
        int keys = 8;
        try (EngineParts parts = EngineParts.of(tmp, new FileChannelBackend(), 1 << 20, false)) {
            LogWriter log = parts.open();
            Map<String, byte[]> round = new LinkedHashMap<>();
            for (int k = 0; k < keys; k++) {
                round.put("k" + k, version(0, rnd.nextInt(40)));
            }
            append(log, round);
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> broken = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    while (!done.get() && broken.get() == null) {
                        int newest = 0;
                        for (int k = 0; k < keys; k++) {
                            int v = parts.get("k" + k)[0];
                            if (v < newest) {
                                broken.set("k" + k + " at batch " + v + " after a key of batch " + newest);
                            }
                            newest = Math.max(newest, v);
                        }
                    }
                } catch (RuntimeException | Error e) {
                    broken.set("the reader failed: " + e);
                }
            });
            reader.start();
            try {
                for (int n = 1; n < 120; n++) {
                    for (int k = 0; k < keys; k++) {
                        round.put("k" + k, version(n, rnd.nextInt(40)));
                    }
                    append(log, round);
                }
            } finally {
                done.set(true);
                reader.join(60_000);
            }
            assertThat(broken.get()).as("seed %d", seed).isNull();
        }
    }

    /** A value whose first byte is the batch number {@code n}, padded to vary its length. */
    private static byte[] version(int n, int pad) {
        byte[] v = new byte[1 + pad];
        v[0] = (byte) n;
        return v;
    }

    /** What readers see of {@code keys}, in order, as text; null for an absent key. */
    private static List<String> seen(EngineParts parts, Iterable<String> keys) {
        List<byte[]> out = new ArrayList<>();
        for (String k : keys) {
            out.add(parts.get(k));
        }
        return text(out);
    }

    /** The values as text, in order; null stays null. */
    private static List<String> text(Collection<byte[]> values) {
        return values.stream().map(v -> v == null ? null : new String(v, StandardCharsets.UTF_8)).toList();
    }

    private static long append(LogWriter log, Map<String, byte[]> members) {
        LogBatch batch = new LogBatch(members);
        return log.appendBatch(batch, batch.length(), true);
    }
}
