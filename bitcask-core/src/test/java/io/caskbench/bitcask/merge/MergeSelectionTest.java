package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.MutableClock;
import io.caskbench.bitcask.testing.Rollovers;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A selective merge: it reads the live records of the fragmented segments and not the rest, and what it leaves in place
 * never brings a deleted or expired key back, nor loses a newer value to a tombstone it keeps.
 */
class MergeSelectionTest {

    private static final int SEGMENT = 64 << 10;
    private static final int VALUE = 1000;
    /** Keys are ten bytes long, so every put record has the same length. */
    private static final int RECORD = RecordFormat.recordLength(0, 10, VALUE);
    /** Puts that fill one segment exactly. */
    private static final int PER_SEGMENT = (SEGMENT - RecordFormat.FILE_HEADER_SIZE) / RECORD;

    @TempDir
    Path dir;

    /** No automatic merge: each test builds its segments by hand and merges them itself. */
    private static BitCaskOptions options(Backend backend) {
        return BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT).mergeSmallSegmentBytes(0).autoMerge(false).build();
    }

    private static String key(String prefix, int i) {
        return String.format("%s-%0" + (9 - prefix.length()) + "d", prefix, i);
    }

    private static byte[] value(String what) {
        return Bytes.padded(what, VALUE);
    }

    private static void fill(BitCask db, String prefix, int from, int to, String round) {
        for (int i = from; i < to; i++) {
            db.put(key(prefix, i), value(round + i));
        }
    }

    /** Puts keys {@code prefix-0, 1, ...} until the active segment rolls over; the last one lies in the new segment. */
    private static int rollOver(BitCask db, String prefix, String round) {
        return Rollovers.rollOver(db, i -> db.put(key(prefix, i), value(round + i)), 2 * PER_SEGMENT);
    }

    /**
     * Puts the victim, fills segment 1 with live keys, deletes the victim and fills segment 2 with
     * keys {@code b-0, 1, ...}; returns how many of them were put, the last one in segment 3.
     */
    private static int deleteVictimInSegmentTwo(BitCask db) {
        db.put(key("victim", 0), value("old"));
        rollOver(db, "a", "live"); // segment 1 stays: all live but for the victim
        db.delete(key("victim", 0));
        return rollOver(db, "b", "first"); // segment 2: the tombstone and records about to die
    }

    @EveryBackend
    void aMergeOfAStoreWithOneSegmentInTenFragmentedReadsAboutOneInTen(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, options(backend))) {
            fill(db, "a", 0, 10 * PER_SEGMENT, "first");
            fill(db, "a", 3 * PER_SEGMENT, 4 * PER_SEGMENT, "second"); // every record of the fourth segment dies
            BitCaskStats stats = db.stats();
            long data = stats.liveBytes() + stats.deadBytes();
            MergeResult r = db.merge();
            assertThat(r.segmentsInStore()).isEqualTo(11);
            assertThat(r.inputsSelected()).isEqualTo(1);
            assertThat(r.removedSegments()).containsExactly(4L);
            assertThat(r.bytesBefore()).isEqualTo((long) PER_SEGMENT * RECORD).isLessThan(data / 10);
            assertThat(r.bytesRead()).as("no record of it is live").isZero();
            assertThat(r.recordsCopied()).isZero();
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            for (int i = 0; i < 10 * PER_SEGMENT; i++) {
                String round = i >= 3 * PER_SEGMENT && i < 4 * PER_SEGMENT ? "second" : "first";
                assertThat(db.get(key("a", i))).isEqualTo(value(round + i));
            }
            MergeResult all = db.merge(MergeScope.ALL);
            assertThat(all.inputsSelected()).isEqualTo(0); // no dead byte left: nothing to do
        }
    }

    @EveryBackend
    void aMergeOfAHalfDeadSegmentInTenWritesItsLiveHalfOnly(Backend backend) throws Exception {
        int from = 3 * PER_SEGMENT;
        int to = 4 * PER_SEGMENT;
        try (BitCask db = BitCask.open(dir, options(backend))) {
            fill(db, "a", 0, 10 * PER_SEGMENT, "first");
            for (int i = from; i < to; i += 2) { // every other record of the fourth segment dies
                db.put(key("a", i), value("second" + i));
            }
            BitCaskStats stats = db.stats();
            long data = stats.liveBytes() + stats.deadBytes();
            MergeResult r = db.merge();
            long live = (to - from) / 2;
            assertThat(r.removedSegments()).containsExactly(4L);
            assertThat(r.bytesBefore()).isEqualTo((long) PER_SEGMENT * RECORD).isLessThan(data / 10);
            assertThat(r.bytesRead()).as("its live half").isEqualTo(live * RECORD);
            assertThat(r.recordsCopied()).isEqualTo(live);
            assertThat(r.bytesAfter()).as("what the merge wrote: the live half of one segment in ten")
                    .isBetween(live * RECORD, live * RECORD + RecordFormat.FILE_HEADER_SIZE).isLessThan(data / 10);
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            for (int i = 0; i < 10 * PER_SEGMENT; i++) {
                boolean second = i >= from && i < to && (i - from) % 2 == 0;
                assertThat(db.get(key("a", i))).isEqualTo(value((second ? "second" : "first") + i));
            }
        }
    }

    @EveryBackend
    void aTombstoneStaysWhileAnOlderSegmentOutsideTheMergeMayHoldItsKey(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, options(backend))) {
            int b = deleteVictimInSegmentTwo(db);
            fill(db, "b", 0, b, "second");
            MergeResult r = db.merge();
            assertThat(r.removedSegments()).contains(2L).doesNotContain(1L);
            assertThat(db.get(key("victim", 0))).isNull();
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            assertThat(db.get(key("victim", 0))).as("a deleted key came back after a partial merge").isNull();
            db.merge(MergeScope.ALL);
            assertThat(db.get(key("victim", 0))).isNull();
            assertThat(db.get(key("a", 0))).isEqualTo(value("live0"));
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            assertThat(db.get(key("victim", 0))).isNull();
        }
    }

    /**
     * The tombstones a merge must keep are found after a reopen too: one in a sealed segment, loaded
     * from its hint, and one in the newest segment, which the reopen takes up again for writes.
     */
    @EveryBackend
    void aTombstoneLoadedAtOpenStaysWhileAnOlderSegmentOutsideTheMergeMayHoldItsKey(Backend backend) throws Exception {
        int b;
        int c;
        try (BitCask db = BitCask.open(dir, options(backend))) {
            db.put(key("victim", 0), value("old"));
            db.put(key("victim", 1), value("old"));
            rollOver(db, "a", "live"); // segment 1 stays: all live but for the victims
            db.delete(key("victim", 0));
            b = rollOver(db, "b", "first"); // segment 2: a tombstone and records about to die
            db.delete(key("victim", 1)); // segment 3, the newest at close
            c = PER_SEGMENT / 2;
            fill(db, "c", 0, c, "first");
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            fill(db, "b", 0, b, "second");
            fill(db, "c", 0, c, "second");
            rollOver(db, "d", "live");
            MergeResult r = db.merge();
            assertThat(r.removedSegments()).contains(2L, 3L).doesNotContain(1L);
            assertThat(db.get(key("victim", 0))).isNull();
            assertThat(db.get(key("victim", 1))).isNull();
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            assertThat(db.get(key("victim", 0))).as("a deleted key came back from a hinted segment's merge").isNull();
            assertThat(db.get(key("victim", 1))).as("a deleted key came back from the reopened segment's merge").isNull();
            assertThat(db.get(key("a", 0))).isEqualTo(value("live0"));
        }
    }

    /** A tombstone a merge kept in its output is kept again by a later merge of that output, before any reopen. */
    @EveryBackend
    void aTombstoneKeptByAMergeIsKeptByTheNextMergeOfItsOutput(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, options(backend))) {
            int b = deleteVictimInSegmentTwo(db); // nine records of segment 2 in ten are about to die
            for (int i = 0; i < b; i++) {
                if (i % 10 != 0) {
                    db.put(key("b", i), value("second" + i));
                }
            }
            MergeResult first = db.merge();
            assertThat(first.removedSegments()).containsExactly(2L);
            assertThat(first.addedSegments()).hasSize(1);
            for (int i = 0; i < b; i += 10) {
                db.put(key("b", i), value("third" + i)); // the first merge's output is dead now but for the tombstone
            }
            MergeResult second = db.merge();
            assertThat(second.removedSegments()).contains(first.addedSegments().get(0)).doesNotContain(1L);
            assertThat(db.get(key("victim", 0))).isNull();
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            assertThat(db.get(key("victim", 0))).as("a deleted key came back after a merge of a merge's output").isNull();
            assertThat(db.get(key("a", 0))).isEqualTo(value("live0"));
        }
    }

    @EveryBackend
    void aTombstoneIsNotKeptWhereItWouldHideANewerValue(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, options(backend))) {
            int b = deleteVictimInSegmentTwo(db);
            db.put(key("victim", 0), value("new")); // segment 3, which stays: live but for one record
            rollOver(db, "c", "live");
            fill(db, "b", 0, b, "second");
            MergeResult r = db.merge();
            assertThat(r.removedSegments()).contains(2L).doesNotContain(1L, 3L);
        }
        try (BitCask db = BitCask.open(dir, options(backend))) {
            assertThat(db.get(key("victim", 0))).isEqualTo(value("new"));
        }
    }

    @EveryBackend
    void anExpiredRecordStaysWhileAnOlderSegmentOutsideTheMergeMayHoldItsKey(Backend backend) throws Exception {
        MutableClock clock = new MutableClock(1_000_000);
        BitCaskOptions o = options(backend).toBuilder().clock(clock).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put(key("victim", 0), value("old"));
            rollOver(db, "a", "live");
            db.put(key("victim", 0), value("short"), Duration.ofSeconds(1));
            int b = rollOver(db, "b", "first");
            clock.advance(2000);
            fill(db, "b", 0, b, "second");
            MergeResult r = db.merge();
            assertThat(r.removedSegments()).contains(2L).doesNotContain(1L);
            assertThat(db.get(key("victim", 0))).isNull();
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get(key("victim", 0))).as("an older value came back from under an expired one").isNull();
        }
    }
}
