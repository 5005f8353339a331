package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.MutableClock;
import io.caskbench.bitcask.testing.StoreFiles;
import io.caskbench.bitcask.testing.TestOptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Merge: what it reclaims, that it runs online, and that nothing it touches comes back or goes missing. */
class MergeTest {

    /** Puts a background writer makes at most during one merge: about a dozen 256 KB segments. */
    private static final int WRITER_PUTS = 50_000;
    /** Segment files a test may leave: far below any descriptor limit a CI machine sets. */
    private static final int MAX_SEGMENTS = 64;
    /** Keys of the paced-merge case: enough live records that the merge copies for several slices. */
    private static final int PACED_KEYS = 40_000;

    @TempDir
    Path dir;

    /** A 100-byte value that names its round and key. */
    private static byte[] value(int round, int i) {
        return Bytes.padded("r" + round + "-" + i, 100);
    }

    private static long segmentFiles(Path store) throws Exception {
        return StoreFiles.dataFiles(store).size();
    }

    /** No automatic merge: each test runs its own merges and checks what they did (one test turns it on). */
    private static BitCaskOptions opts(Backend b) {
        return TestOptions.with(b, 256 << 10).toBuilder().maxValueSize(4096).autoMerge(false).build();
    }

    @EveryBackend
    void mergeReclaimsDeadBytesAndKeepsLiveOnes(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 2000; i++) {
                    db.put("k" + i, ("r" + round + "-" + i).getBytes(StandardCharsets.UTF_8));
                }
            }
            for (int i = 0; i < 2000; i += 2) {
                db.delete("k" + i);
            }
            BitCaskStats before = db.stats();
            MergeResult r = db.merge();
            BitCaskStats after = db.stats();
            assertThat(r.bytesReclaimed()).isPositive();
            assertThat(r.removedSegments()).isNotEmpty();
            assertThat(r.addedSegments()).isNotEmpty();
            assertThat(after.deadBytes()).isLessThan(before.deadBytes() / 10);
            assertThat(after.diskBytes()).isLessThan(before.diskBytes() / 3);
            assertThat(db.size()).isEqualTo(1000);
            for (int i = 0; i < 2000; i++) {
                byte[] v = db.get("k" + i);
                assertThat(v).isEqualTo(i % 2 == 0 ? null : ("r4-" + i).getBytes(StandardCharsets.UTF_8));
            }
            for (long id : r.addedSegments()) {
                assertThat(dir.resolve(String.format("%09d.hint", id))).exists();
            }
            for (long id : r.removedSegments()) {
                assertThat(dir.resolve(String.format("%09d.data", id))).doesNotExist();
            }
            assertThat(db.merge().bytesReclaimed()).isLessThanOrEqualTo(after.deadBytes());
        }
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.size()).isEqualTo(1000);
            assertThat(db.get("k0")).isNull();
            assertThat(db.get("k1")).isEqualTo("r4-1".getBytes(StandardCharsets.UTF_8));
        }
    }

    @EveryBackend
    void expiredKeysStayExpiredAndMergeDropsThem(Backend backend) {
        MutableClock clock = new MutableClock(1_000_000);
        BitCaskOptions o = opts(backend).toBuilder().clock(clock).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 1000; i++) {
                db.put("t" + i, new byte[50], Duration.ofSeconds(10));
                db.put("p" + i, new byte[50]);
            }
            clock.advance(10_001);
            assertThat(db.get("t1")).isNull();
            assertThat(db.containsKey("t1")).isFalse();
            assertThat(db.delete("t1")).isFalse();
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get("t2")).isNull();
            assertThat(db.get("p2")).isNotNull();
            db.merge(MergeScope.ALL);
            assertThat(db.size()).isEqualTo(1000);
            long live = 0;
            for (int i = 0; i < 1000; i++) {
                live += RecordFormat.recordLength(0, ("p" + i).length(), 50);
            }
            assertThat(db.stats().liveBytes()).isEqualTo(live);
            assertThat(db.stats().deadBytes()).isZero();
        }
    }

    /**
     * At least 64 threads put, get and delete while merges run back to back; afterwards every key
     * holds the last value its (single) writer wrote, also after reopen. Each key belongs to one
     * thread, so that thread's last write is the oracle.
     */
    @EveryBackend
    void concurrentWritesDuringContinuousMergesLoseNothingAndResurrectNothing(Backend backend) throws Exception {
        int threads = 64;
        int keysPerThread = 200;
        long millis = Long.getLong("caskbench.stressMillis", 3000);
        AtomicReferenceArray<byte[]> last = new AtomicReferenceArray<>(threads * keysPerThread);
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> errors = new ArrayList<>();
        AtomicInteger merges = new AtomicInteger();
        AtomicLong ops = new AtomicLong();
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            Thread merger = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        db.merge();
                        merges.incrementAndGet();
                    } catch (Throwable e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                        return;
                    }
                }
            });
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                workers.add(new Thread(() -> {
                    Random rnd = new Random(id);
                    long n = 0;
                    try {
                        while (!stop.get()) {
                            int k = id * keysPerThread + rnd.nextInt(keysPerThread);
                            int dice = rnd.nextInt(10);
                            if (dice < 5) {
                                byte[] v = ("t" + id + "-" + n++ + "-" + "y".repeat(rnd.nextInt(100))).getBytes(StandardCharsets.UTF_8);
                                db.put("k" + k, v);
                                last.set(k, v);
                            } else if (dice < 6) {
                                db.delete("k" + k);
                                last.set(k, null);
                            } else {
                                byte[] got = db.get("k" + k);
                                if (!Arrays.equals(got, last.get(k))) {
                                    throw new AssertionError("k" + k + " read a value its only writer did not leave there");
                                }
                            }
                            ops.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                    }
                }));
            }
            merger.start();
            workers.forEach(Thread::start);
            Thread.sleep(millis);
            stop.set(true);
            merger.join();
            for (Thread w : workers) {
                w.join();
            }
            assertThat(errors).isEmpty();
            assertThat(merges.get()).isPositive();
            db.merge();
            check(db, last);
        }
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            check(db, last);
        }
    }

    private static void check(BitCask db, AtomicReferenceArray<byte[]> last) {
        ConcurrentHashMap<Integer, byte[]> found = new ConcurrentHashMap<>();
        db.forEach((k, v) -> found.put(Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(1)), v));
        for (int k = 0; k < last.length(); k++) {
            assertThat(found.get(k)).as("k%d", k).isEqualTo(last.get(k));
        }
    }

    @EveryBackend
    void backupIsAConsistentOpenableCopyWhileWritesGoOn(Backend backend) throws Exception {
        Path target = dir.resolveSibling(dir.getFileName() + "-backup");
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            for (int i = 0; i < 5000; i++) {
                db.put("k" + i, ("v" + i).getBytes(StandardCharsets.UTF_8));
            }
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch writing = new CountDownLatch(100);
            Thread writer = new Thread(() -> {
                int i = 0;
                while (!stop.get()) {
                    db.put("late" + (i++ % 1000), new byte[64]);
                    writing.countDown();
                }
            });
            writer.start();
            writing.await(); // the backup starts while writes are going on
            db.backup(target);
            stop.set(true);
            writer.join();
            db.put("after-backup", new byte[1]);
            assertThatThrownBy(() -> db.backup(target)).isInstanceOf(BitCaskException.class).hasMessageContaining("not empty");
        }
        try (BitCask copy = BitCask.open(target, opts(backend))) {
            for (int i = 0; i < 5000; i++) {
                assertThat(copy.get("k" + i)).isEqualTo(("v" + i).getBytes(StandardCharsets.UTF_8));
            }
            assertThat(copy.get("after-backup")).isNull();
        }
    }

    @EveryBackend
    void automaticMergeRunsWhenTheDeadRatioIsCrossed(Backend backend) throws Exception {
        BitCaskOptions o = opts(backend).toBuilder().autoMerge(true).mergeDeadRatio(0.3)
                .mergeCheckInterval(Duration.ofMillis(20)).mergeBytesPerSecond(50L << 20).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 3000; i++) {
                    db.put("k" + i, new byte[100]);
                }
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (db.stats().deadRatio() > 0.3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(db.stats().deadRatio()).isLessThanOrEqualTo(0.3);
            assertThat(db.size()).isEqualTo(3000);
        }
    }

    @EveryBackend
    @Timeout(120)
    void aMergePacedByABusyForegroundFinishesAndLeavesTheSameStoreAsAnUnpacedOne(Backend backend) throws Exception {
        for (boolean paced : new boolean[] {true, false}) {
            Path store = dir.resolve(paced ? "paced" : "unpaced");
            BitCaskOptions o = opts(backend).toBuilder().mergePacing(paced).build();
            assertThat(o.mergePacing()).isEqualTo(paced);
            try (BitCask db = BitCask.open(store, o)) {
                for (int round = 0; round < 4; round++) {
                    for (int i = 0; i < PACED_KEYS; i++) {
                        db.put("k" + i, value(round, i));
                    }
                }
                for (int i = 0; i < 500; i++) {
                    db.put("other" + i, new byte[32]);
                }
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong reads = new AtomicLong();
                AtomicInteger wrong = new AtomicInteger();
                // Reads of keys the merge moves and writes of keys it does not: the foreground the pacer samples.
                // The writer stops after a bounded number of puts: unbounded, a slow merge let it roll over
                // hundreds of small segments, each an open file, until the process met its descriptor limit.
                Thread reader = new Thread(() -> {
                    for (int i = 0; !stop.get(); i = (i + 1) % PACED_KEYS) {
                        if (!Arrays.equals(db.get("k" + i), value(3, i))) {
                            wrong.incrementAndGet();
                        }
                        reads.incrementAndGet();
                    }
                });
                Thread writer = new Thread(() -> {
                    for (int n = 0; n < WRITER_PUTS && !stop.get(); n++) {
                        db.put("other" + (n % 500), new byte[32]);
                    }
                });
                reader.start();
                writer.start();
                MergeResult r;
                try {
                    r = db.merge(MergeScope.ALL);
                } finally {
                    stop.set(true);
                    reader.join();
                    writer.join();
                }
                assertThat(r.bytesReclaimed()).isPositive();
                assertThat(reads.get()).isPositive();
                assertThat(wrong.get()).isZero();
                // The reader is busy all along, so a paced merge that copies for more than a slice rests.
                if (paced) {
                    assertThat(r.restedMillis()).as("rested, of %d ms", r.millis()).isPositive();
                } else {
                    assertThat(r.restedMillis()).isZero();
                }
                assertThat(db.size()).isEqualTo(PACED_KEYS + 500);
                assertThat(segmentFiles(store)).isLessThan(MAX_SEGMENTS);
            }
            try (BitCask db = BitCask.open(store, o)) {
                for (int i = 0; i < PACED_KEYS; i++) {
                    assertThat(db.get("k" + i)).isEqualTo(value(3, i));
                }
            }
        }
        assertThat(BitCaskOptions.defaults().mergePacing()).isTrue();
        assertThat(BitCaskOptions.defaults().toBuilder().mergePacing(false).build().toBuilder().build().mergePacing()).isFalse();
    }

    @EveryBackend
    void hintFilesAreUsedAndABrokenOneFallsBackToAScan(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            for (int i = 0; i < 20_000; i++) {
                db.put("k" + i, ("v" + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        List<Path> hints;
        try (var s = Files.list(dir)) {
            hints = s.filter(p -> p.toString().endsWith(".hint")).sorted().toList();
        }
        assertThat(hints).hasSizeGreaterThan(1);
        Files.delete(hints.get(0));
        byte[] h = Files.readAllBytes(hints.get(1));
        h[h.length / 2] ^= 0x55;
        Files.write(hints.get(1), h);
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.size()).isEqualTo(20_000);
            for (int i = 0; i < 20_000; i += 97) {
                assertThat(db.get("k" + i)).isEqualTo(("v" + i).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
