package io.caskbench.bitcask;

import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.Seeds;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code sync()} and {@code merge()} are durability barriers for every write that returned before
 * they were called, whatever other puts are still copying. A put copies its record after it lets
 * go of the write lock, so a later put can return while an earlier one is still copying: the
 * written end (all a force may count) then stops in front of the later put, and a barrier that
 * forced only up to it would return with the later put unforced.
 */
class SyncBarrierTest {

    /** Rounds of the racing test; the published check runs 300. */
    private static final int ROUNDS = Integer.getInteger("caskbench.syncRounds", 40);

    @TempDir
    Path dir;

    /** Threads of their own: the common pool may have a single thread on a small machine. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    static Stream<Arguments> backendsAndLazyPolicies() {
        return Backends.available().stream()
                .flatMap(b -> Stream.of(SyncPolicy.NONE, SyncPolicy.INTERVAL).map(p -> Arguments.of(b, p)));
    }

    static Stream<Arguments> backendsAndPolicies() {
        return Backends.available().stream()
                .flatMap(b -> Stream.of(SyncPolicy.values()).map(p -> Arguments.of(b, p)));
    }

    /** Options whose interval force never runs during a test: what a barrier forces is its own doing. */
    private static BitCaskOptions options(SyncPolicy policy, WatchingBackend watching) {
        return BitCaskOptions.builder().syncPolicy(policy).syncInterval(Duration.ofHours(1)).segmentBackend(watching)
                .segmentSize(64L << 20).maxValueSize(8 << 20).build();
    }

    /** The name of the file of {@code db}'s active segment. */
    private static String activeFile(BitCask db) {
        long id = db.stats().segments().stream().filter(BitCaskStats.SegmentStats::active).findFirst().orElseThrow().id();
        return SegmentFiles.dataFile(db.directory(), id).getFileName().toString();
    }

    private static byte[] value(int len, int fill) {
        byte[] v = new byte[len];
        Arrays.fill(v, (byte) fill);
        return v;
    }

    /**
     * Holds the first write made by the thread in {@code held} in its middle until
     * {@code release}; the other writes go through.
     */
    private static final class Hold {
        final CountDownLatch copying = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<Thread> held = new AtomicReference<>();

        Hold(WatchingBackend watching) {
            watching.midWrite = name -> {
                if (held.compareAndSet(Thread.currentThread(), null)) {
                    copying.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("backendsAndLazyPolicies")
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void syncWaitsForAnEarlierCopyThenForcesAPutThatReturned(Backend backend, SyncPolicy policy) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        Hold hold = new Hold(watching);
        try (BitCask db = BitCask.open(dir, options(policy, watching))) {
            db.put("first", value(100, 1));
            db.sync(); // the written end is durable now: only the puts below are left to force
            CompletableFuture<Void> early = CompletableFuture.runAsync(() -> {
                hold.held.set(Thread.currentThread());
                db.put("early", value(4000, 2));
            }, threads);
            assertThat(hold.copying.await(60, TimeUnit.SECONDS)).as("the early put reached its copy").isTrue();
            db.put("later", value(200, 3)); // returns beside the held copy
            String file = activeFile(db);
            long laterEnd = watching.writtenEnd(file);
            CompletableFuture<Void> sync = CompletableFuture.runAsync(db::sync, threads);
            assertThatThrownBy(() -> sync.get(200, TimeUnit.MILLISECONDS))
                    .as("sync() returned while a copy reserved before it was still under way")
                    .isInstanceOf(TimeoutException.class);
            hold.release.countDown();
            early.get(60, TimeUnit.SECONDS);
            sync.get(60, TimeUnit.SECONDS);
            assertThat(watching.forcedEnd(file)).as("forced end of %s once sync() returned", file).isGreaterThanOrEqualTo(laterEnd);
        }
    }

    /**
     * Two threads put 4 MiB values, each copy taking a while, while a third puts and then calls
     * {@code sync()}: every {@code sync()} must start a force after its put returned, since no force
     * before then can have covered it. The rounds run in lock step so the store stays small.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("backendsAndLazyPolicies")
    @Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everySyncForcesAfterThePutBeforeIt(Backend backend, SyncPolicy policy) throws Exception {
        long seed = Seeds.base();
        WatchingBackend watching = new WatchingBackend(backend.create());
        AtomicInteger forces = new AtomicInteger();
        watching.beforeForce = name -> forces.incrementAndGet();
        byte[] big = value(4 << 20, 7);
        Random rnd = new Random(seed);
        int unforced = 0;
        try (BitCask db = BitCask.open(dir, options(policy, watching))) {
            CyclicBarrier start = new CyclicBarrier(3);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                String key = "big" + w;
                writers.add(threads.submit(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        start.await(60, TimeUnit.SECONDS);
                        db.put(key, big);
                    }
                    return null;
                }));
            }
            for (int r = 0; r < ROUNDS; r++) {
                start.await(60, TimeUnit.SECONDS);
                // Let the big copies start first in most rounds, so the small put returns behind one.
                for (int spin = rnd.nextInt(20_000); spin > 0; spin--) {
                    Thread.onSpinWait();
                }
                db.put("small" + r, value(100, r));
                int before = forces.get();
                db.sync();
                if (forces.get() == before) {
                    unforced++;
                }
            }
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
        }
        assertThat(unforced).as("sync() calls with no force after their put, of %d (seed %d)", ROUNDS, seed).isZero();
    }

    /**
     * A merge that selects nothing is still a barrier: what returned before {@code merge()} was
     * called is forced once it returns, as after a merge that copied.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("backendsAndPolicies")
    void aMergeThatSelectsNothingForcesWhatCameBefore(Backend backend, SyncPolicy policy) {
        WatchingBackend watching = new WatchingBackend(backend.create());
        try (BitCask db = BitCask.open(dir, options(policy, watching))) {
            for (int i = 0; i < 100; i++) {
                db.put("k" + i, value(100, i));
            }
            String file = activeFile(db);
            long written = watching.writtenEnd(file);
            for (MergeScope scope : MergeScope.values()) {
                MergeResult r = db.merge(scope); // no dead byte anywhere: nothing to select
                assertThat(r.inputsSelected()).as("inputs of the %s merge", scope).isZero();
                assertThat(watching.forcedEnd(file)).as("forced end of %s after a %s merge", file, scope).isGreaterThanOrEqualTo(written);
                db.put("after-" + scope, value(50, 9));
                written = watching.writtenEnd(file);
            }
        }
    }

    @EveryBackend
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aMergeWaitsForAnEarlierCopyThenForcesAPutThatReturned(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        Hold hold = new Hold(watching);
        try (BitCask db = BitCask.open(dir, options(SyncPolicy.NONE, watching))) {
            db.put("first", value(100, 1));
            db.sync();
            CompletableFuture<Void> early = CompletableFuture.runAsync(() -> {
                hold.held.set(Thread.currentThread());
                db.put("early", value(4000, 2));
            }, threads);
            assertThat(hold.copying.await(60, TimeUnit.SECONDS)).as("the early put reached its copy").isTrue();
            db.put("later", value(200, 3));
            String file = activeFile(db);
            long laterEnd = watching.writtenEnd(file);
            CompletableFuture<MergeResult> merge = CompletableFuture.supplyAsync(db::merge, threads);
            hold.release.countDown();
            early.get(60, TimeUnit.SECONDS);
            assertThat(merge.get(60, TimeUnit.SECONDS).inputsSelected()).isZero();
            assertThat(watching.forcedEnd(file)).as("forced end of %s once merge() returned", file).isGreaterThanOrEqualTo(laterEnd);
        }
    }
}
