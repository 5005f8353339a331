package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.io.FileChannelBackend;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.ScratchDir;
import io.caskbench.bitcask.testing.StoreFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Merger}, one step failing at a time: every call a merge makes through the segment backend
 * is failed in turn. Whatever failed, the store reads what was written; a failure before the swap
 * leaves no output behind (the store as it was), a failed force leaves the store refusing writes,
 * a merged segment that could not be deleted is deleted before the next merge runs, and no later
 * merge or reopen brings a deleted key back.
 */
@Timeout(300)
class MergerTest {

    private static final long SEGMENT_SIZE = BitCaskOptions.MIN_SEGMENT_SIZE;
    private static final int KEYS = 8;
    private static final int VALUE_SIZE = 12 << 10;

    @TempDir
    Path fallback;

    private ScratchDir scratch;

    @AfterEach
    void removeScratch() {
        if (scratch != null) {
            scratch.close();
        }
    }

    @Test
    void aMergeFailingAtAnyOfItsCallsLeavesTheStoreAsItWasOrMergedAndNeverBringsADeletedKeyBack() {
        scratch = ScratchDir.create(fallback, "merger");
        long calls = callsOfACleanMerge(scratch.path().resolve("clean"));
        assertThat(calls).as("a merge of several segments reaches the backend").isGreaterThan(5);
        for (long k = 1; k <= calls; k++) {
            failCallOfMerge(scratch.path().resolve("at-" + k), k);
        }
    }

    @Test
    void aMergedSegmentThatCouldNotBeDeletedIsDeletedBeforeTheNextMergeRuns() {
        scratch = ScratchDir.create(fallback, "merger");
        Path dir = scratch.path();
        FaultyBackend faulty = new FaultyBackend(new FileChannelBackend());
        Map<String, byte[]> expected = new TreeMap<>();
        try (BitCask db = BitCask.open(dir, options(faulty))) {
            fill(db, expected);
            List<Path> inputs = StoreFiles.dataFiles(dir);
            faulty.countOnly(Thread.currentThread());
            faulty.failCall(1, EnumSet.of(FaultyBackend.Kind.DELETE));

            assertThatThrownBy(() -> db.merge(MergeScope.ALL)).isInstanceOf(BitCaskException.class)
                    .hasMessageContaining("merges are refused");
            assertThat(inputs).as("the first input stays as debris").anyMatch(Files::exists);
            assertReads(db, expected);

            faulty.failCall(1, EnumSet.of(FaultyBackend.Kind.DELETE));
            assertThatThrownBy(() -> db.merge(MergeScope.ALL)).as("refused while the debris cannot go")
                    .isInstanceOf(BitCaskException.class).hasMessageContaining("merge refused");

            disarm(faulty);
            db.delete("k0");
            expected.remove("k0");
            db.merge(MergeScope.ALL);
            assertThat(inputs).as("every merged segment is gone").noneMatch(Files::exists);
            assertReads(db, expected);
        }
        reopenAndAssertReads(dir, expected);
    }

    /** The backend calls the merging thread makes in a merge of a freshly filled store. */
    private static long callsOfACleanMerge(Path dir) {
        FaultyBackend faulty = new FaultyBackend(new FileChannelBackend());
        Map<String, byte[]> expected = new TreeMap<>();
        try (BitCask db = BitCask.open(dir, options(faulty))) {
            fill(db, expected);
            faulty.countOnly(Thread.currentThread());
            long before = faulty.count();
            db.merge(MergeScope.ALL);
            return faulty.count() - before;
        }
    }

    /** Fails the {@code k}-th call of a merge, then checks the store as the merger's contract says. */
    private static void failCallOfMerge(Path dir, long k) {
        FaultyBackend faulty = new FaultyBackend(new FileChannelBackend());
        Map<String, byte[]> expected = new TreeMap<>();
        BitCask db = BitCask.open(dir, options(faulty));
        try {
            fill(db, expected);
            List<Path> inputs = StoreFiles.dataFiles(dir);
            faulty.countOnly(Thread.currentThread());
            faulty.failCall(k);
            RuntimeException failure = null;
            try {
                db.merge(MergeScope.ALL);
            } catch (RuntimeException e) {
                failure = e;
            }
            String at = "failing " + faulty.fired() + " of the merge (" + failure + ")";
            disarm(faulty);
            if (failure != null) {
                assertThat(failure).as(at).isInstanceOf(BitCaskException.class);
            }
            assertReads(db, expected);
            boolean failed = isRefusingWrites(db);
            boolean afterSwap = failure != null && String.valueOf(failure.getMessage()).contains("completed");
            if (failure != null && !failed && !afterSwap) {
                List<Path> added = StoreFiles.dataFiles(dir).stream().filter(p -> !inputs.contains(p)).toList();
                assertThat(added).as("%s before the swap leaves no output, only the new active segment", at).hasSizeLessThanOrEqualTo(1);
            }
            if (!failed) {
                db.delete("k0");
                expected.remove("k0");
                db.merge(MergeScope.ALL); // drops the tombstone: nothing left over may hold k0
                assertReads(db, expected);
            }
        } finally {
            closeQuietly(db);
        }
        reopenAndAssertReads(dir, expected);
    }

    /** True when a write is refused, as after a failed force; the probe write is undone otherwise. */
    private static boolean isRefusingWrites(BitCask db) {
        try {
            db.put("probe", new byte[] {1});
            db.delete("probe");
            return false;
        } catch (BitCaskException e) {
            assertThat(e).hasMessageContaining("refuses writes");
            return true;
        }
    }

    /** Closes a store whose last force may have failed, which close reports again. */
    private static void closeQuietly(BitCask db) {
        try {
            db.close();
        } catch (BitCaskException e) {
            assertThat(db.isClosed()).isTrue();
        }
    }

    private static void disarm(FaultyBackend faulty) {
        faulty.failCall(Long.MAX_VALUE);
    }

    /** No automatic merge: the k-th call of the test's own merge is the one that fails. */
    private static BitCaskOptions options(FaultyBackend faulty) {
        faulty.skipRealForces = true;
        return InternalOptions.withSegmentBackend(BitCaskOptions.builder(), faulty).segmentSize(SEGMENT_SIZE).autoMerge(false).build();
    }

    /** Two rounds over every key, the first dead, and a key written then deleted: several segments worth merging. */
    private static void fill(BitCask db, Map<String, byte[]> expected) {
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < KEYS; i++) {
                byte[] v = value(i, round);
                db.put("k" + i, v);
                expected.put("k" + i, v);
            }
        }
        db.put("gone", value(99, 0));
        db.delete("gone");
    }

    private static byte[] value(int key, int round) {
        return Bytes.filled(VALUE_SIZE, key * 16 + round);
    }

    private static void assertReads(BitCask db, Map<String, byte[]> expected) {
        for (int i = 0; i < KEYS; i++) {
            String key = "k" + i;
            assertThat(db.get(key)).as(key).isEqualTo(expected.get(key));
        }
        assertThat(db.get("gone")).isNull();
        assertThat(db.get("probe")).isNull();
    }

    private static void reopenAndAssertReads(Path dir, Map<String, byte[]> expected) {
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().backend(Backend.FILE_CHANNEL).segmentSize(SEGMENT_SIZE).build())) {
            assertReads(db, expected);
        }
    }
}
