package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.Rollovers;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a merge reads: the live records of its inputs and the tombstones it must look at, never
 * their dead records. The backend counts the bytes read from each file.
 */
class MergeReadTest {

    private static final int SEGMENT = 256 << 10;
    private static final int VALUE = 100;
    /** Keys are ten bytes long, so every put record has the same length. */
    private static final int RECORD = RecordFormat.recordLength(0, 10, VALUE);
    /** Puts that fill one segment. */
    private static final int PER_SEGMENT = (SEGMENT - RecordFormat.FILE_HEADER_SIZE) / RECORD;
    /** Keys of the first segment that are deleted while the second is written. */
    private static final int DELETED = 20;

    @TempDir
    Path dir;

    private static String key(String prefix, int i) {
        return String.format("%s-%0" + (9 - prefix.length()) + "d", prefix, i);
    }

    private static byte[] value(String what) {
        return Bytes.padded(what, VALUE);
    }

    /** Puts keys {@code prefix-0, 1, ...} until the active segment rolls over; returns how many went into the old one. */
    private static int rollOver(BitCask db, String prefix, String round) {
        return Rollovers.rollOver(db, i -> db.put(key(prefix, i), value(round + i)), 2 * PER_SEGMENT) - 1;
    }

    /**
     * Segment 1 stays live; segment 2 holds keys of its own, nine in ten overwritten later, and
     * tombstones of keys whose values segment 1 holds, so they must stay. Merging segment 2 alone
     * reads its live tenth and its tombstones, at most 15% of it, where a scan reads all of it.
     */
    @EveryBackend
    void aMergeOfASegmentNinetyPercentDeadReadsItsLiveRecordsOnly(Backend backend) {
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching)
                .segmentSize(SEGMENT).mergeSmallSegmentBytes(0).autoMerge(false).build(); // the test merges itself
        int written;
        try (BitCask db = BitCask.open(dir, o)) {
            rollOver(db, "a", "first"); // segment 1: live throughout but for the deleted keys
            for (int i = 0; i < PER_SEGMENT / 2; i++) {
                db.put(key("b", i), value("first" + i));
            }
            for (int i = 0; i < DELETED; i++) {
                db.delete(key("a", i)); // tombstones in the middle of segment 2
            }
            long second = Rollovers.activeId(db);
            written = PER_SEGMENT / 2 + rollOver(db, "c", "first");
            for (int i = 0; i < PER_SEGMENT / 2; i++) {
                if (i % 10 != 0) {
                    db.put(key("b", i), value("second" + i));
                }
            }
            for (int i = 0; i < written - PER_SEGMENT / 2; i++) {
                if (i % 10 != 0) {
                    db.put(key("c", i), value("second" + i));
                }
            }
            String input = SegmentFiles.dataFile(dir, second).getFileName().toString();
            long readBefore = watching.bytesRead(input);
            MergeResult r = db.merge();
            long read = watching.bytesRead(input) - readBefore;

            assertThat(r.removedSegments()).containsExactly(second);
            long live = (long) (written + 9) / 10 * RECORD;
            assertThat(r.recordsCopied()).isBetween((long) written / 10, (long) written / 10 + 2);
            assertThat(read).as("bytes read from the input of %d data bytes", r.bytesBefore())
                    .isLessThanOrEqualTo(r.bytesBefore() * 15 / 100)
                    .isGreaterThanOrEqualTo(r.bytesRead());
            assertThat(r.bytesRead()).as("what the merge says it read").isGreaterThanOrEqualTo(live - 2 * RECORD);
            for (int i = 0; i < DELETED; i++) {
                assertThat(db.get(key("a", i))).isNull();
            }
        }
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < PER_SEGMENT / 2; i++) {
                assertThat(db.get(key("b", i))).isEqualTo(value((i % 10 == 0 ? "first" : "second") + i));
            }
            for (int i = 0; i < written - PER_SEGMENT / 2; i++) {
                assertThat(db.get(key("c", i))).isEqualTo(value((i % 10 == 0 ? "first" : "second") + i));
            }
            for (int i = 0; i < DELETED; i++) {
                assertThat(db.get(key("a", i))).as("a deleted key came back from the segment the merge left").isNull();
            }
            assertThat(db.get(key("a", DELETED))).isEqualTo(value("first" + DELETED));
        }
    }
}
