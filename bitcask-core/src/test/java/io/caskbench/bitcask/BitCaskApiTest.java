package io.caskbench.bitcask;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every public method and every bad input, on both backends. */
class BitCaskApiTest {

    @TempDir
    Path dir;

    private static BitCaskOptions opts(Backend b) {
        return TestOptions.with(b, 1 << 20);
    }

    @EveryBackend
    void putGetDeleteContainsSize(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.get(b("a"))).isNull();
            assertThat(db.containsKey(b("a"))).isFalse();
            db.put(b("a"), b("1"));
            db.put("b", b("2"));
            assertThat(db.get("a")).isEqualTo(b("1"));
            assertThat(db.get(b("b"))).isEqualTo(b("2"));
            assertThat(db.size()).isEqualTo(2);
            db.put("a", b("3"));
            assertThat(db.get("a")).isEqualTo(b("3"));
            assertThat(db.size()).isEqualTo(2);
            assertThat(db.delete("a")).isTrue();
            assertThat(db.delete("a")).isFalse();
            assertThat(db.delete(b("never"))).isFalse();
            assertThat(db.get("a")).isNull();
            assertThat(db.containsKey("a")).isFalse();
            assertThat(db.containsKey("b")).isTrue();
            assertThat(db.size()).isEqualTo(1);
            db.put("a", b("4"));
            assertThat(db.get("a")).isEqualTo(b("4"));
        }
    }

    @EveryBackend
    void emptyValueIsDistinctFromAbsent(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            db.put("e", new byte[0]);
            assertThat(db.get("e")).isEmpty();
            assertThat(db.containsKey("e")).isTrue();
        }
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThat(db.get("e")).isNotNull().isEmpty();
        }
    }

    @EveryBackend
    void returnedArraysAreCopies(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            byte[] v = b("value");
            db.put("k", v);
            v[0] = 'X';
            byte[] got = db.get("k");
            assertThat(got).isEqualTo(b("value"));
            got[0] = 'Y';
            assertThat(db.get("k")).isEqualTo(b("value"));
        }
    }

    @EveryBackend
    void badInputIsRejectedClearly(Backend backend) {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(1 << 20).maxKeySize(8).maxValueSize(16).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("ok", b("v"));
            assertThatThrownBy(() -> db.put((byte[]) null, b("v"))).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.put(b("k"), null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.put((String) null, b("v"))).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.get((byte[]) null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.delete((String) null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> db.put(new byte[0], b("v"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
            assertThatThrownBy(() -> db.get(new byte[0])).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> db.put(new byte[9], b("v"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxKeySize");
            assertThatThrownBy(() -> db.put(b("k"), new byte[17])).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxValueSize");
            assertThatThrownBy(() -> db.put(b("k"), b("v"), Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> db.forEach(null)).isInstanceOf(NullPointerException.class);
            // nothing of the rejected calls reached the store
            assertThat(db.size()).isEqualTo(1);
            assertThat(db.get("ok")).isEqualTo(b("v"));
        }
    }

    @Test
    void optionsRejectNonsense() {
        assertThatThrownBy(() -> BitCaskOptions.builder().segmentSize(10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCaskOptions.builder().maxKeySize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCaskOptions.builder().maxKeySize(70_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCaskOptions.builder().syncInterval(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCaskOptions.builder().segmentSize(1 << 20).maxValueSize(2 << 20).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit");
        assertThatThrownBy(() -> BitCaskOptions.builder().backend(null)).isInstanceOf(NullPointerException.class);
        BitCaskOptions d = BitCaskOptions.defaults();
        assertThat(d.backend()).isEqualTo(Backend.defaultBackend())
                .isEqualTo(Backend.MEMORY_SEGMENT.available() ? Backend.MEMORY_SEGMENT : Backend.MAPPED);
        assertThat(d.segmentSize()).isEqualTo(64L << 20);
        assertThat(d.syncPolicy()).isEqualTo(SyncPolicy.NONE);
        assertThat(BitCaskOptions.builder().segmentSize(1 << 20).build().maxValueSize()).isLessThan(1 << 20);
    }

    @EveryBackend
    void closedStoreThrowsIllegalState(Backend backend) {
        BitCask db = BitCask.open(dir, opts(backend));
        db.put("k", b("v"));
        db.close();
        db.close(); // idempotent
        assertThat(db.isClosed()).isTrue();
        assertThatThrownBy(() -> db.get("k")).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> db.put("k", b("v"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> db.delete("k")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> db.containsKey("k")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(db::size).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(db::stats).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(db::sync).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> db.forEach((k, v) -> { })).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(db::merge).isInstanceOf(IllegalStateException.class);
    }

    @EveryBackend
    void secondOpenInTheSameProcessIsLockedAndNamesTheDirectory(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            assertThatThrownBy(() -> BitCask.open(dir, opts(backend)))
                    .isInstanceOf(BitCaskLockedException.class)
                    .hasMessageContaining(dir.toAbsolutePath().toString());
            db.put("still", b("works"));
        }
        try (BitCask again = BitCask.open(dir, opts(backend))) {
            assertThat(again.get("still")).isEqualTo(b("works"));
        }
    }

    @EveryBackend
    void forEachVisitsEachLivePairOnce(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            Map<String, String> want = new HashMap<>();
            for (int i = 0; i < 500; i++) {
                db.put("k" + i, b("v" + i));
                want.put("k" + i, "v" + i);
            }
            for (int i = 0; i < 500; i += 3) {
                db.delete("k" + i);
                want.remove("k" + i);
            }
            db.put("k1", b("again"));
            want.put("k1", "again");
            Map<String, String> seen = new HashMap<>();
            db.forEach((k, v) -> assertThat(seen.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8))).isNull());
            assertThat(seen).isEqualTo(want);
            List<String> keys = db.keys().map(k -> new String(k, StandardCharsets.UTF_8)).collect(Collectors.toList());
            assertThat(keys).containsExactlyInAnyOrderElementsOf(want.keySet());
        }
    }

    @EveryBackend
    void recordSizeIsWhatAPutAppends(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            db.put("k", new byte[0]);
            long before = db.stats().liveBytes();
            db.put(new byte[16], new byte[100]);
            db.put(new byte[300], new byte[4080]);
            assertThat(db.stats().liveBytes() - before)
                    .isEqualTo(BitCask.recordSize(16, 100) + BitCask.recordSize(300, 4080));
        }
        assertThat(BitCask.recordSize(16, 100)).isGreaterThan(116);
        assertThatThrownBy(() -> BitCask.recordSize(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCask.recordSize(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @EveryBackend
    void statsAccountForLiveAndDeadBytes(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            BitCaskStats empty = db.stats();
            assertThat(empty.keyCount()).isZero();
            assertThat(empty.liveBytes()).isZero();
            for (int i = 0; i < 10_000; i++) {
                db.put("key" + i, new byte[100]);
            }
            BitCaskStats s1 = db.stats();
            assertThat(s1.keyCount()).isEqualTo(10_000);
            assertThat(s1.deadBytes()).isZero();
            assertThat(s1.segmentCount()).isGreaterThan(1);
            assertThat(s1.indexBytes()).isPositive();
            assertThat(s1.diskBytes()).isGreaterThanOrEqualTo(s1.liveBytes());
            assertThat(s1.segments()).hasSize(s1.segmentCount());
            for (int i = 0; i < 5_000; i++) {
                db.put("key" + i, new byte[100]);
            }
            BitCaskStats s2 = db.stats();
            assertThat(s2.liveBytes()).isEqualTo(s1.liveBytes());
            long replaced = 0;
            for (int i = 0; i < 5_000; i++) {
                replaced += RecordFormat.recordLength(0, ("key" + i).length(), 100);
            }
            assertThat(s2.deadBytes()).isEqualTo(replaced);
            assertThat(s2.segments().stream().mapToLong(BitCaskStats.SegmentStats::liveBytes).sum()).isEqualTo(s2.liveBytes());
        }
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            BitCaskStats s3 = db.stats();
            assertThat(s3.keyCount()).isEqualTo(10_000);
            assertThat(s3.deadRatio()).isBetween(0.3, 0.36);
        }
    }

    @EveryBackend
    void everySyncPolicyKeepsData(Backend backend) {
        for (SyncPolicy p : SyncPolicy.values()) {
            Path d = dir.resolve(p.name());
            BitCaskOptions o = BitCaskOptions.builder().backend(backend).syncPolicy(p).syncInterval(Duration.ofMillis(5)).segmentSize(1 << 20).build();
            try (BitCask db = BitCask.open(d, o)) {
                for (int i = 0; i < 200; i++) {
                    db.put("k" + i, b("v" + i));
                }
                db.sync();
            }
            try (BitCask db = BitCask.open(d, o)) {
                assertThat(db.size()).isEqualTo(200);
                assertThat(db.get("k199")).isEqualTo(b("v199"));
            }
        }
    }

    @EveryBackend
    void fullDiskFailsTheWriteCleanlyAndLosesNothing(Backend backend) {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).segmentSize(1 << 20).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 100; i++) {
                db.put("k" + i, b("v" + i));
            }
            faulty.writeBudget.set(10);
            assertThatThrownBy(() -> db.put("k100", b("v100"))).isInstanceOf(BitCaskException.class).hasMessageContaining("no space");
            assertThatThrownBy(() -> db.delete("k5")).isInstanceOf(BitCaskException.class);
            assertThat(db.get("k100")).isNull();
            assertThat(db.get("k5")).isEqualTo(b("v5"));
            assertThat(db.size()).isEqualTo(100);
            faulty.writeBudget.set(-1); // space freed
            db.put("k101", b("v101"));
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.size()).isEqualTo(101);
            assertThat(db.get("k100")).isNull();
            assertThat(db.get("k5")).isEqualTo(b("v5"));
            assertThat(db.get("k101")).isEqualTo(b("v101"));
        }
    }

    /**
     * After a failed force the dirty pages may be gone while a later force would report success,
     * so the store refuses every write until it is reopened; the write that saw the failure is not
     * visible, and does not come back after the reopen either.
     */
    @EveryBackend
    void failedForceUnderAlwaysRefusesWritesUntilReopen(Backend backend) {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).syncPolicy(SyncPolicy.ALWAYS).segmentSize(1 << 20).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("a", b("1"));
            faulty.failForce.set(true);
            assertThatThrownBy(() -> db.put("b", b("2"))).isInstanceOf(BitCaskException.class).hasMessageContaining("fsync");
            faulty.failForce.set(false);
            assertThatThrownBy(() -> db.get("b")).isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.put("c", b("3"))).isInstanceOf(BitCaskException.class).hasMessageContaining("reopen");
            assertThatThrownBy(db::merge).isInstanceOf(BitCaskException.class).hasMessageContaining("reopen");
            assertThat(db.get("a")).isEqualTo(b("1"));
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get("a")).isEqualTo(b("1"));
            assertThat(db.get("b")).isNull();
            db.put("c", b("3"));
            assertThat(db.get("c")).isEqualTo(b("3"));
        }
    }

    /**
     * Group commit must not acknowledge early: under {@code ALWAYS}, every put that returns has had its
     * record covered by a completed force, while concurrent writers share forces. Forces are slowed so
     * that writers overlap them; 1 MiB segments make the run cross rollovers.
     */
    @EveryBackend
    void alwaysForcesEveryAcknowledgedPutWhileWritersShareForces(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        faulty.forceDelayMillis = 1;
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).syncPolicy(SyncPolicy.ALWAYS).segmentSize(1 << 20).build();
        int threads = 16;
        int perThread = 300;
        AtomicInteger early = new AtomicInteger();
        try (BitCask db = BitCask.open(dir, o)) {
            List<Thread> writers = new ArrayList<>();
            byte[] value = new byte[300];
            for (int t = 0; t < threads; t++) {
                int id = t;
                writers.add(new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        db.put("t" + id + "-" + i, value);
                        if (!faulty.lastWriteForced()) {
                            early.incrementAndGet();
                        }
                    }
                }));
            }
            writers.forEach(Thread::start);
            for (Thread w : writers) {
                w.join();
            }
            assertThat(early).as("puts acknowledged before a force covered them").hasValue(0);
            assertThat(faulty.forces.get()).as("forces for %d puts", threads * perThread).isLessThan(threads * perThread);
            assertThat(db.size()).isEqualTo(threads * perThread);
        }
    }

    /**
     * A put under {@code ALWAYS} that is still waiting for its force when another thread closes the store
     * must not return before close has forced it. Thread a's force is held at a gate after it noted what
     * it covers; b appends after that, so only close's force can cover b. The gate opens once close has
     * marked the store closed, so b is waiting across the close whatever the machine's speed.
     */
    @EveryBackend
    void alwaysPutRacingCloseReturnsOnlyOnceCloseForcedIt(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).syncPolicy(SyncPolicy.ALWAYS).segmentSize(1 << 20).build();
        BitCask db = BitCask.open(dir, o);
        CountDownLatch gate = new CountDownLatch(1);
        faulty.forceGate = gate;
        long writesBefore = faulty.writes.get();
        AtomicReference<Object> bOutcome = new AtomicReference<>();
        Thread a = new Thread(() -> db.put("a", b("1")));
        a.start();
        awaitCondition(() -> faulty.forcesStarted.get() >= 1);
        Thread bThread = new Thread(() -> {
            try {
                db.put("b", b("2"));
                bOutcome.set(faulty.lastWriteForced());
            } catch (RuntimeException e) {
                bOutcome.set(e);
            }
        });
        bThread.start();
        awaitCondition(() -> faulty.writes.get() >= writesBefore + 2);
        Thread closer = new Thread(db::close);
        closer.start();
        awaitCondition(db::isClosed);
        gate.countDown();
        closer.join();
        a.join();
        bThread.join();
        assertThat(bOutcome.get()).as("b's put returned with its record forced").isEqualTo(Boolean.TRUE);
        try (BitCask reopened = BitCask.open(dir, opts(backend))) {
            assertThat(reopened.get("b")).isEqualTo(b("2"));
        }
    }

    private static void awaitCondition(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 30 s").isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    @EveryBackend
    void typedViewWithProtostuff(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            TypedBitCask<Meta> metas = db.typed(ProtostuffCodec.of(Meta.class));
            Meta m = new Meta();
            m.name = "object1.png";
            m.size = 12345;
            m.tags = List.of("a", "b");
            metas.put("object1.png", m);
            Meta back = metas.get("object1.png");
            assertThat(back.name).isEqualTo("object1.png");
            assertThat(back.size).isEqualTo(12345);
            assertThat(back.tags).containsExactly("a", "b");
            assertThat(metas.get("missing")).isNull();
            assertThat(metas.containsKey("object1.png")).isTrue();
            assertThat(metas.delete("object1.png")).isTrue();
        }
    }

    /** A Protostuff-serialized test value. */
    static final class Meta {
        String name;
        long size;
        List<String> tags;
    }

    @Test
    void readOnlyStoreSharesTheDirectoryAndRefusesWrites() {
        try (BitCask db = BitCask.open(dir, opts(Backend.MAPPED))) {
            db.put("k", b("v"));
        }
        BitCaskOptions ro = BitCaskOptions.builder().readOnly(true).segmentSize(1 << 20).build();
        try (BitCask r1 = BitCask.open(dir, ro); BitCask r2 = BitCask.open(dir, ro)) {
            assertThat(r1.get("k")).isEqualTo(b("v"));
            assertThat(r2.get("k")).isEqualTo(b("v"));
            assertThatThrownBy(() -> r1.put("x", b("y"))).isInstanceOf(BitCaskReadOnlyException.class);
            assertThatThrownBy(() -> r1.delete("k")).isInstanceOf(BitCaskReadOnlyException.class);
            assertThatThrownBy(r1::merge).isInstanceOf(BitCaskReadOnlyException.class);
        }
        assertThatThrownBy(() -> BitCask.open(dir.resolve("none"), ro)).isInstanceOf(BitCaskException.class);
    }

    @EveryBackend
    void filesAreNamedAsDocumented(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            db.put("k", b("v"));
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("000000001.data", "000000001.hint", "LOCK");
        }
    }

    /** Many writers at once contend for the write lock; every acknowledged put must be there, also after reopen. */
    @EveryBackend
    void manyConcurrentWritersLoseNothing(Backend backend) throws Exception {
        for (SyncPolicy policy : new SyncPolicy[]{SyncPolicy.NONE, SyncPolicy.ALWAYS}) {
            Path d = dir.resolve(policy.name());
            BitCaskOptions o = BitCaskOptions.builder().backend(backend).syncPolicy(policy).segmentSize(256 << 10).build();
            int threads = 200;
            int perThread = policy == SyncPolicy.ALWAYS ? 20 : 300;
            try (BitCask db = BitCask.open(d, o)) {
                List<Thread> ts = new ArrayList<>();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
                for (int t = 0; t < threads; t++) {
                    int id = t;
                    Thread th = new Thread(() -> {
                        try {
                            start.await();
                            for (int i = 0; i < perThread; i++) {
                                db.put("t" + id + "-" + i, b("v" + id + "-" + i));
                                if (i % 7 == 0) {
                                    db.delete("t" + id + "-" + (i / 2));
                                }
                            }
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    });
                    th.start();
                    ts.add(th);
                }
                for (Thread th : ts) {
                    th.join();
                }
                assertThat(errors).isEmpty();
                check(db, threads, perThread);
            }
            try (BitCask db = BitCask.open(d, o)) {
                check(db, threads, perThread);
            }
        }
    }

    private static void check(BitCask db, int threads, int perThread) {
        long live = 0;
        for (int id = 0; id < threads; id++) {
            Set<Integer> deleted = new HashSet<>();
            for (int i = 0; i < perThread; i++) {
                deleted.remove(i);
                if (i % 7 == 0) {
                    deleted.add(i / 2);
                }
            }
            for (int i = 0; i < perThread; i++) {
                byte[] want = deleted.contains(i) ? null : b("v" + id + "-" + i);
                assertThat(db.get("t" + id + "-" + i)).as("t%d-%d", id, i).isEqualTo(want);
                live += want == null ? 0 : 1;
            }
        }
        assertThat(db.size()).isEqualTo(live);
    }

    /**
     * A writer commits batches {a=i, b=i}; readers read a, then b. Once a reader saw a=i, b must
     * be at least i: seeing a newer a with an older b would be half a batch.
     */
    @EveryBackend
    void readersNeverSeeHalfABatch(Backend backend) throws Exception {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            db.write(new WriteBatch().put("a", b("0")).put("b", b("0")));
            AtomicBoolean stop = new AtomicBoolean();
            List<String> violations = Collections.synchronizedList(new ArrayList<>());
            List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
            AtomicLong pairsRead = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                Thread t = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            int a = Integer.parseInt(new String(db.get("a"), StandardCharsets.UTF_8));
                            int bv = Integer.parseInt(new String(db.get("b"), StandardCharsets.UTF_8));
                            if (bv < a) {
                                violations.add("a=" + a + " b=" + bv);
                            }
                            pairsRead.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        errors.add(e); // a null or failed read must fail the test, not end a reader quietly
                    }
                });
                t.start();
                readers.add(t);
            }
            for (int i = 1; i <= 20_000; i++) {
                db.write(new WriteBatch().put("a", b(Integer.toString(i))).put("b", b(Integer.toString(i))));
            }
            stop.set(true);
            for (Thread t : readers) {
                t.join();
            }
            assertThat(errors).isEmpty();
            assertThat(violations).isEmpty();
            assertThat(pairsRead.get()).as("pairs read while batches were written").isPositive();
        }
    }
}
