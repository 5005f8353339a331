package io.caskbench.bitcask;

import ch.qos.logback.classic.Level;
import io.caskbench.bitcask.merge.Merger;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.LogCapture;
import io.caskbench.bitcask.testing.StoreFiles;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.caskbench.bitcask.testing.Bytes.b;
import static io.caskbench.bitcask.testing.Bytes.indexOf;
import static io.caskbench.bitcask.testing.Bytes.overwrite;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Failure paths of merge, backup, forces and close, one finding per test. */
@Timeout(120)
class FailurePathTest {

    @TempDir
    Path dir;

    @TempDir
    Path elsewhere;

    private static byte[] value(int size, int seed) {
        return Bytes.filled(size, seed);
    }

    @EveryBackend
    void aMergeOutputThatCannotBeOpenedIsNotLeftToBringADeletedKeyBack(Backend backend) {
        WatchingBackend watching = new WatchingBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("key", b("old value"));
            db.put("churn", b("1"));
            db.put("churn", b("2"));
            List<String> before = dataFiles();
            watching.failOpenReadOnly = p -> !before.contains(p.getFileName().toString());
            assertThatThrownBy(db::merge).isInstanceOf(BitCaskException.class);
            watching.failOpenReadOnly = p -> false;
            db.delete("key");
            db.merge(); // drops the tombstone
            assertThat(db.get("key")).isNull();
        }
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build())) {
            assertThat(db.get("key")).isNull();
            assertThat(db.get("churn")).isEqualTo(b("2"));
        }
    }

    private List<String> dataFiles() {
        return StoreFiles.dataFiles(dir).stream().map(p -> p.getFileName().toString()).toList();
    }

    @EveryBackend
    void aBackupOfAReadOnlyStoreSharesNoFileThatCanStillChange(Backend backend) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 8; i++) {
                db.put("k" + i, value(20 << 10, i)); // several segments
            }
        }
        Map<String, byte[]> source = snapshot(dir);
        Path backup = elsewhere.resolve("backup");
        try (BitCask ro = BitCask.open(dir, o.toBuilder().readOnly(true).build())) {
            ro.backup(backup);
        }
        try (BitCask copy = BitCask.open(backup, o)) {
            copy.put("written to the backup", b("x"));
            copy.delete("k7");
        }
        Map<String, byte[]> after = snapshot(dir);
        assertThat(after.keySet()).isEqualTo(source.keySet());
        for (String name : source.keySet()) {
            assertThat(after.get(name)).as(name).isEqualTo(source.get(name));
        }
    }

    private static Map<String, byte[]> snapshot(Path d) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(d)) {
            for (Path p : list.filter(p -> !p.getFileName().toString().equals("LOCK")).toList()) {
                files.put(p.getFileName().toString(), Files.readAllBytes(p));
            }
        }
        return files;
    }

    @EveryBackend
    void anInterruptedWriterUnderAlwaysStillGetsItsForceAndRollover(Backend backend) {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).syncPolicy(SyncPolicy.ALWAYS).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 6; i++) {
                Thread.currentThread().interrupt();
                db.put("k" + i, value(20 << 10, i)); // forces every time, and rolls over twice
                assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            }
            for (int i = 0; i < 6; i++) {
                assertThat(db.get("k" + i)).isEqualTo(value(20 << 10, i));
            }
        }
    }

    @EveryBackend
    void aSealedSegmentIsForcedBeforeItsHintIsWritten(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 4; i++) {
                db.put("k" + i, value(20 << 10, i));
            }
            Path hint = dir.resolve("000000001.hint");
            // Under NONE nothing has forced the sealed segment yet: a hint may not exist before it is.
            if (Files.exists(hint)) {
                assertThat(watching.forcedEnd("000000001.data")).isEqualTo(watching.writtenEnd("000000001.data"));
            }
            db.sync(); // forces it; its hint follows
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(hint) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(hint).exists();
            assertThat(watching.forcedEnd("000000001.data")).isEqualTo(watching.writtenEnd("000000001.data"));
        }
    }

    @EveryBackend
    void syncForcesEverySegmentSealedSinceTheLastForce(Backend backend) {
        WatchingBackend watching = new WatchingBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 10; i++) {
                db.put("k" + i, value(20 << 10, i));
            }
            db.sync();
            for (String name : dataFiles()) {
                assertThat(watching.forcedEnd(name)).as(name).isEqualTo(watching.writtenEnd(name));
            }
        }
    }

    @EveryBackend
    void underAlwaysADeleteThatFindsTheKeyGoneWaitsForTheTombstoneToBeForced(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).syncPolicy(SyncPolicy.ALWAYS).segmentSize(1 << 20).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("key", b("v"));
            CountDownLatch gate = new CountDownLatch(1);
            faulty.forceGate = gate;
            CompletableFuture<Boolean> first;
            CompletableFuture<Boolean> second;
            CompletableFuture<byte[]> read;
            try {
                long started = faulty.forcesStarted.get();
                first = CompletableFuture.supplyAsync(() -> db.delete("key"));
                while (faulty.forcesStarted.get() == started) {
                    Thread.onSpinWait(); // the first delete's tombstone is written and its force has begun
                }
                second = CompletableFuture.supplyAsync(() -> db.delete("key"));
                read = CompletableFuture.supplyAsync(() -> db.get("key"));
                Thread.sleep(200);
                assertThat(second).as("a delete that saw an unforced tombstone").isNotDone();
                assertThat(read).as("a get that saw an unforced tombstone").isNotDone();
            } finally {
                faulty.forceGate = null;
                gate.countDown();
            }
            assertThat(first.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(second.get(30, TimeUnit.SECONDS)).isFalse();
            assertThat(read.get(30, TimeUnit.SECONDS)).isNull();
        }
    }

    @EveryBackend
    void underAlwaysAGetNeverReturnsAValueThatIsNotYetForced(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).syncPolicy(SyncPolicy.ALWAYS).segmentSize(1 << 20).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("key", b("v1"));
            CountDownLatch gate = new CountDownLatch(1);
            faulty.forceGate = gate;
            CompletableFuture<Void> put;
            CompletableFuture<byte[]> read;
            try {
                long started = faulty.forcesStarted.get();
                put = CompletableFuture.runAsync(() -> db.put("key", b("v2")));
                while (faulty.forcesStarted.get() == started) {
                    Thread.onSpinWait();
                }
                read = CompletableFuture.supplyAsync(() -> db.get("key"));
                Thread.sleep(200);
                if (read.isDone()) {
                    assertThat(read.get()).as("only the forced value may be seen before the force").isEqualTo(b("v1"));
                }
            } finally {
                faulty.forceGate = null;
                gate.countDown();
            }
            put.get(30, TimeUnit.SECONDS);
            assertThat(read.get(30, TimeUnit.SECONDS)).isIn(b("v1"), b("v2"));
        }
    }

    @EveryBackend
    void anEmptyBatchIsRefusedLikeAnyWriteAfterCloseAndOnAReadOnlyStore(Backend backend) {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build();
        BitCask db = BitCask.open(dir, o);
        db.close();
        assertThatThrownBy(() -> db.write(new WriteBatch())).isInstanceOf(IllegalStateException.class);
        try (BitCask ro = BitCask.open(dir, o.toBuilder().readOnly(true).build())) {
            assertThatThrownBy(() -> ro.write(new WriteBatch())).isInstanceOf(BitCaskReadOnlyException.class);
        }
    }

    @EveryBackend
    void aSecondCloseReturnsOnlyOnceTheStoreIsClosed(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).segmentSize(64 << 10).build();
        BitCask db = BitCask.open(dir, o);
        db.put("k", b("v"));
        CountDownLatch gate = new CountDownLatch(1);
        faulty.forceGate = gate;
        CompletableFuture<Void> first;
        CompletableFuture<Void> second;
        try {
            long started = faulty.forcesStarted.get();
            first = CompletableFuture.runAsync(db::close);
            while (faulty.forcesStarted.get() == started) {
                Thread.onSpinWait(); // the first close is inside its final force
            }
            second = CompletableFuture.runAsync(db::close);
            Thread.sleep(200);
            assertThat(second).isNotDone();
        } finally {
            faulty.forceGate = null;
            gate.countDown();
        }
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);
        assertThat(db.isClosed()).isTrue();
    }

    @EveryBackend
    void aFailedMergeLeaksNoFileHandle(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        // No automatic merge: the merges that fail here are the test's own, each at the step it arranged.
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(64 << 10).autoMerge(false).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 6; i++) {
                db.put("k" + (i % 3), value(20 << 10, i));
            }
            List<String> before = dataFiles();
            watching.failOpenReadOnly = p -> !before.contains(p.getFileName().toString());
            for (int attempt = 0; attempt < 3; attempt++) {
                assertThatThrownBy(() -> db.merge(MergeScope.ALL)).isInstanceOf(BitCaskException.class);
            }
            watching.failOpenReadOnly = p -> false;
            // Hint files of the next outputs cannot be written: a directory stands where their
            // temporary file would go. A hint is optional, so the merge must not fail or leak.
            long firstOutput = dataFiles().stream().mapToLong(n -> Long.parseLong(n.substring(0, n.indexOf('.')))).max().orElseThrow() + 1;
            for (long id = firstOutput; id < firstOutput + 4; id++) {
                Files.createDirectories(dir.resolve(String.format("%09d.hint.tmp", id)));
            }
            try {
                db.merge(MergeScope.ALL);
            } catch (BitCaskException e) {
                // a merge may fail on a missing hint; it must still leak nothing
            }
            assertThat(db.get("k0")).isEqualTo(value(20 << 10, 3));
        }
        assertThat(watching.openHandles.get()).isZero();
    }

    @EveryBackend
    void aMergeThatPassesOverCorruptBytesSaysSoAndKeepsEverythingElse(Backend backend) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 6; i++) {
                db.put("k" + i, value(20 << 10, i)); // k0..k2 in the first segment
            }
            db.put("k5", value(20 << 10, 9)); // dead bytes, so the merge runs
            db.put("k0", value(20 << 10, 0)); // and a third of the first segment dead, so the merge takes it
        }
        // The hint stays: open takes k1's record from it unread, so the merge meets it at a live location.
        assertThat(dir.resolve("000000001.hint")).exists();
        byte[] file = Files.readAllBytes(dir.resolve("000000001.data"));
        int k1 = indexOf(file, b("k1"));
        overwrite(dir.resolve("000000001.data"), k1 + 100, new byte[] {(byte) (file[k1 + 100] ^ 1)});
        try (LogCapture log = LogCapture.warnings(Merger.class); BitCask db = BitCask.open(dir, o)) {
            db.merge();
            assertThat(log.events()).anySatisfy(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("corrupt");
            });
            assertThat(db.get("k1")).isNull();
            for (int i : new int[] {0, 2, 3, 4}) {
                assertThat(db.get("k" + i)).isEqualTo(value(20 << 10, i));
            }
            assertThat(db.get("k5")).isEqualTo(value(20 << 10, 9));
        }
    }

    /**
     * Under ALWAYS a put whose data was forced but whose directory force then failed (the
     * directory had changed, here by a hint file) was not acknowledged: a read must not return it,
     * and close must not keep it.
     */
    @EveryBackend
    void underAlwaysAPutWhoseDirectoryForceFailedIsNeitherReadNorKept(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).syncPolicy(SyncPolicy.ALWAYS).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 4; i++) {
                db.put("k" + i, value(20 << 10, i)); // rolls over: the hint writer writes a hint, and the directory changes
            }
            awaitIdleHintWriter(dir, "000000001.hint");
            faulty.failCall(1, EnumSet.of(FaultyBackend.Kind.FORCE_DIRECTORY));
            assertThatThrownBy(() -> db.put("k3", b("new"))).isInstanceOf(BitCaskException.class);
            try {
                assertThat(Arrays.equals(db.get("k3"), value(20 << 10, 3))).as("a get returns the acknowledged value").isTrue();
            } catch (BitCaskException refused) {
                // allowed: the record it found is not durable
            }
        }
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().segmentSize(64 << 10).build())) {
            assertThat(Arrays.equals(db.get("k3"), value(20 << 10, 3))).as("after reopen, the acknowledged value").isTrue();
        }
    }

    /** Waits until the hint file {@code name} exists and the store's hint writer has gone back to waiting for work. */
    private static void awaitIdleHintWriter(Path store, String name) throws InterruptedException {
        Path hint = store.resolve(name);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            boolean idle = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("bitcask-hints-" + store.getFileName()))
                    .allMatch(t -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING);
            if (Files.exists(hint) && idle) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the hint writer did not write " + hint);
    }
}
