package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readers, writers and merges at once. A reader that loses a race with a writer or a merge reads
 * again; it never reports corruption of healthy data, and no merge ever touches a closed store.
 * Bounded in time: {@code -Dcaskbench.stressMillis=N} runs longer.
 */
class MergeRaceTest {

    private static final long MILLIS = Long.getLong("caskbench.stressMillis", 3000);

    @TempDir
    Path dir;

    @EveryBackend
    void readersNeverSeeCorruptionWhileWritersAndMergesRun(Backend backend) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(1 << 20).build();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (BitCask db = BitCask.open(dir, o)) {
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                long seed = w;
                threads.add(new Thread(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    while (!stop.get()) {
                        String key = "k" + rnd.nextInt(20_000);
                        if (rnd.nextInt(4) == 0) {
                            db.delete(key);
                        } else {
                            db.put(key, new byte[rnd.nextInt(201)]);
                        }
                    }
                }));
            }
            for (int r = 0; r < 4; r++) {
                long seed = 100 + r;
                threads.add(new Thread(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    while (!stop.get()) {
                        db.get("k" + rnd.nextInt(20_000));
                    }
                }));
            }
            threads.add(new Thread(() -> {
                while (!stop.get()) {
                    db.merge();
                    sleep(20);
                }
            }));
            threads.forEach(t -> t.setUncaughtExceptionHandler((th, e) -> errors.add(e)));
            threads.forEach(Thread::start);
            sleep(MILLIS);
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(1));
            }
        }
        assertThat(errors).isEmpty();
    }

    @EveryBackend
    void aMergeRacingCloseEndsInAnExceptionNotACrash(Backend backend) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int round = 0; System.nanoTime() < deadline; round++) {
            Path d = dir.resolve("round" + round);
            BitCask db = BitCask.open(d, o);
            for (int i = 0; i < 400; i++) {
                db.put("k" + (i % 50), new byte[300]);
            }
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            Thread merger = new Thread(() -> {
                try {
                    while (true) {
                        db.merge();
                        for (int i = 0; i < 50; i++) {
                            db.put("k" + i, new byte[300]);
                        }
                    }
                } catch (IllegalStateException closed) {
                    // the expected end: the store was closed
                } catch (Throwable t) {
                    errors.add(t);
                }
            });
            merger.start();
            sleep(rnd.nextInt(5));
            db.close();
            merger.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(errors).isEmpty();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A sync that took the active segment to force it, and is descheduled before the force while a
     * merge seals, copies and retires that segment, must neither fail the store nor force a segment
     * the merge closed (for a mapping, that would touch unmapped memory).
     */
    @EveryBackend
    void aSyncHeldUpWhileAMergeRetiresTheSegmentItForcesFailsNothing(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("k", new byte[100]);
            db.put("k", new byte[200]); // dead bytes, so the merge runs; both in the active segment 1
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch resume = new CountDownLatch(1);
            AtomicReference<Thread> syncer = new AtomicReference<>();
            watching.beforeForce = name -> {
                if (Thread.currentThread() == syncer.get() && name.equals("000000001.data")) {
                    held.countDown();
                    awaitQuietly(resume);
                }
            };
            AtomicReference<Throwable> syncFailure = new AtomicReference<>();
            Thread sync = unstarted(db::sync, syncFailure);
            syncer.set(sync);
            sync.start();
            assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
            AtomicReference<Throwable> mergeFailure = new AtomicReference<>();
            Thread merge = unstarted(db::merge, mergeFailure);
            merge.start();
            // The merge retires segment 1 at once if nothing holds it up; a store that forces inside
            // the reader gate makes the merge wait for the sync instead. Either way the sync resumes.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!watching.closedWriters.contains("000000001.data") && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            resume.countDown();
            sync.join();
            merge.join();
            assertThat(syncFailure.get()).isNull();
            assertThat(mergeFailure.get()).isNull();
            db.put("after", new byte[10]); // the store still takes writes
            assertThat(db.get("k")).hasSize(200);
        }
    }

    /**
     * A put publishes its record in the key directory after it lets go of the write lock. A merge that
     * sealed that record's segment before the put had published would take the record for dead, skip it
     * and delete its segment, and the put would then point its key into a deleted file. The put below is
     * held inside its publication (at the read of the key's previous record) while a merge starts: the
     * merge must still leave the key reading the put's value, before and after a reopen.
     */
    @EveryBackend
    void aMergeNeverLosesAPutThatIsStillPublishing(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching).segmentSize(64 << 10).build();
        byte[] newer = new byte[200];
        Arrays.fill(newer, (byte) 7);
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("k", new byte[100]);
            db.put("dead", new byte[10]);
            db.put("dead", new byte[20]); // dead bytes, so the merge runs
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch resume = new CountDownLatch(1);
            AtomicReference<Thread> putter = new AtomicReference<>();
            watching.beforeRead = name -> {
                if (Thread.currentThread() == putter.get()) {
                    held.countDown();
                    awaitQuietly(resume);
                }
            };
            AtomicReference<Throwable> putFailure = new AtomicReference<>();
            Thread put = unstarted(() -> db.put("k", newer), putFailure);
            putter.set(put);
            put.start();
            assertThat(held.await(30, TimeUnit.SECONDS)).as("the put reads the key's previous record").isTrue();
            AtomicReference<Throwable> mergeFailure = new AtomicReference<>();
            Thread merge = unstarted(db::merge, mergeFailure);
            merge.start();
            merge.join(2000); // time enough to seal, copy and retire, if nothing holds the merge up
            putter.set(null);
            resume.countDown();
            put.join();
            merge.join();
            assertThat(putFailure.get()).isNull();
            assertThat(mergeFailure.get()).isNull();
            assertThat(db.get("k")).isEqualTo(newer);
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get("k")).isEqualTo(newer);
        }
    }

    /** A thread that runs {@code body} and keeps what it threw in {@code failure}. */
    private static Thread unstarted(Runnable body, AtomicReference<Throwable> failure) {
        return new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
