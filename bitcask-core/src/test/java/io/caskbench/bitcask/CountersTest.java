package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.FaultyBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link BitCask#counters()}: every call, merge, force and refusal counted once, from any thread. */
class CountersTest {

    private static final int SEGMENT = 64 << 10;

    @TempDir
    Path tmp;

    @Test
    void callsMergesAndForcesAreCountedOnce() {
        BitCaskCounters after;
        MergeResult merged;
        try (BitCask db = BitCask.open(tmp.resolve("s"), BitCaskOptions.builder().segmentSize(SEGMENT).autoMerge(false).build())) {
            assertThat(db.counters()).isEqualTo(new BitCaskCounters(0, 0, 0, 0, java.time.Duration.ZERO, 0, 0, 0,
                    java.time.Duration.ZERO, 0, java.time.Duration.ZERO, 0, 0, java.time.Duration.ZERO, 0));
            for (int i = 0; i < 1000; i++) {
                db.put("k" + i, new byte[100]);
            }
            db.put("k0", new byte[100], java.time.Duration.ofHours(1));
            db.get("k1");
            db.get("absent");
            db.containsKey("k2");
            assertThat(db.delete("k3")).isTrue();
            assertThat(db.delete("absent")).isFalse();
            db.write(new WriteBatch().put("b1", new byte[1]).put("b2", new byte[1]).delete("k4"));
            db.sync();
            db.sync(); // nothing new: no force
            for (int i = 0; i < 1000; i++) {
                db.put("k" + i, new byte[100]);
            }
            merged = db.merge();
            after = db.counters();
            assertThat(db.merge().recordsCopied()).as("nothing dead: no merge counted").isZero();
            assertThat(db.counters().merges()).isEqualTo(1);
        }
        assertThat(after.puts()).isEqualTo(1000 + 1 + 2 + 1000);
        assertThat(after.gets()).isEqualTo(2);
        assertThat(after.deletes()).isEqualTo(2 + 1);
        assertThat(after.merges()).isEqualTo(1);
        assertThat(after.mergeTime()).isPositive();
        assertThat(after.mergeReclaimedBytes()).isEqualTo(merged.bytesReclaimed()).isPositive();
        assertThat(after.mergeBytesRead()).isEqualTo(merged.bytesRead()).isPositive();
        assertThat(after.largestMergeBytesRead()).isEqualTo(merged.bytesRead());
        assertThat(after.longestMerge()).isPositive().isEqualTo(after.mergeTime());
        assertThat(after.forces()).as("one sync, one force in the merge").isEqualTo(2);
        assertThat(after.forceTime()).isPositive();
        assertThat(after.refusedWrites()).isZero();
    }

    @Test
    void bytesReadAddUpOverMergesAndTheLargestAndLongestAreThoseOfOne() {
        try (BitCask db = BitCask.open(tmp.resolve("m"), BitCaskOptions.builder().segmentSize(SEGMENT).autoMerge(false).build())) {
            for (int i = 0; i < 3000; i++) {
                db.put("k" + i, new byte[100]);
            }
            for (int i = 0; i < 300; i++) {
                db.put("k" + i, new byte[100]);
            }
            MergeResult small = db.merge(MergeScope.ALL);
            for (int i = 0; i < 6000; i++) { // twice the live records: a merge reads those
                db.put("k" + i, new byte[100]);
            }
            MergeResult large = db.merge(MergeScope.ALL);
            BitCaskCounters c = db.counters();

            assertThat(small.bytesRead()).isPositive().isLessThan(large.bytesRead());
            assertThat(c.merges()).isEqualTo(2);
            assertThat(c.mergeBytesRead()).isEqualTo(small.bytesRead() + large.bytesRead());
            assertThat(c.largestMergeBytesRead()).isEqualTo(large.bytesRead());
            assertThat(c.longestMerge()).isPositive().isLessThanOrEqualTo(c.mergeTime());
            assertThat(c.longestMerge().toMillis()).isGreaterThanOrEqualTo(Math.max(small.millis(), large.millis()));
        }
    }

    @Test
    void putsFromManyThreadsAreAllCounted() throws Exception {
        try (BitCask db = BitCask.open(tmp.resolve("t"), BitCaskOptions.builder().segmentSize(SEGMENT).build())) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                threads.add(new Thread(() -> {
                    for (int i = 0; i < 500; i++) {
                        db.put("t" + id + "-" + i, new byte[10]);
                        db.get("t" + id + "-" + i);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertThat(db.counters().puts()).isEqualTo(2000);
            assertThat(db.counters().gets()).isEqualTo(2000);
        }
    }

    @Test
    void writesRefusedAfterAFailedForceAreCountedAndTheCountsOutliveClose() {
        FaultyBackend faulty = new FaultyBackend(Backend.FILE_CHANNEL.create());
        BitCask db = BitCask.open(tmp.resolve("f"), BitCaskOptions.builder().segmentBackend(faulty).segmentSize(SEGMENT).autoMerge(false).build());
        try {
            db.put("a", new byte[3]);
            faulty.failForce.set(true);
            assertThatThrownBy(db::sync).isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.put("b", new byte[3])).isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.delete("a")).isInstanceOf(BitCaskException.class);
        } finally {
            try {
                db.close();
            } catch (BitCaskException closeFailed) {
                // close forces nothing after a failure; it may say so
            }
        }
        BitCaskCounters c = db.counters();
        assertThat(c.refusedWrites()).isEqualTo(2);
        assertThat(c.forces()).as("the failed one").isEqualTo(1);
        assertThat(c.puts()).isEqualTo(2);
    }
}
