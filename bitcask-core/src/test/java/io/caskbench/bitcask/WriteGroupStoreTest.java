package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.Seeds;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.caskbench.bitcask.testing.Parking.awaitParked;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Puts through the store's write groups: the puts queued behind a write in flight are written by
 * one of them, the next leader, in one positional write where a write is a system call and one
 * copy each into a mapping; a write that fails fails every put of its group and leaves a hole the
 * store writes past; and with many writers at once every put that returned is found after reopen,
 * with each key's later value.
 */
class WriteGroupStoreTest {

    @TempDir
    Path dir;

    /** Threads of their own: the common pool may have a single thread on a small machine. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private static byte[] value(int len, int fill) {
        byte[] v = new byte[len];
        Arrays.fill(v, (byte) fill);
        return v;
    }

    /**
     * Holds the first put's write in its middle until {@link #release}, and notes the thread of
     * each write after that, in order.
     */
    private static final class Hold {
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<Thread> held = new AtomicReference<>();
        final List<Thread> writersAfter = new CopyOnWriteArrayList<>();

        /** Installs itself as the backend's mid-write hook. */
        Hold(WatchingBackend watching) {
            watching.midWrite = name -> {
                if (release.getCount() == 0) {
                    writersAfter.add(Thread.currentThread());
                }
                if (held.compareAndSet(Thread.currentThread(), null)) {
                    holding.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
        }

        /** Starts a put of "first" and returns once it is held in the middle of its write. */
        CompletableFuture<Void> firstPut(BitCask db, ExecutorService threads) throws InterruptedException {
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
                held.set(Thread.currentThread());
                db.put("first", value(300, 1));
            }, threads);
            assertThat(holding.await(60, TimeUnit.SECONDS)).as("the first put reached its write").isTrue();
            return first;
        }

        /** Starts a put of "k{@code n}" and returns once it is parked in the queue; notes its thread in {@code putters}. */
        static CompletableFuture<Void> queuedPut(BitCask db, int n, List<Thread> putters, ExecutorService threads)
                throws InterruptedException {
            AtomicReference<Thread> putter = new AtomicReference<>();
            CompletableFuture<Void> put = CompletableFuture.runAsync(() -> {
                putter.set(Thread.currentThread());
                db.put("k" + n, value(100 + n, n + 2));
            }, threads);
            awaitParked(putter);
            putters.add(putter.get());
            return put;
        }
    }

    @EveryBackend
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theNextLeaderWritesThePutsQueuedBehindAWriteInFlight(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        Hold hold = new Hold(watching);
        int queued = 8;
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().segmentBackend(watching).build())) {
            CompletableFuture<Void> first = hold.firstPut(db, threads);
            List<CompletableFuture<Void>> puts = new ArrayList<>();
            List<Thread> putters = new ArrayList<>();
            for (int i = 0; i < queued; i++) {
                puts.add(Hold.queuedPut(db, i, putters, threads));
            }
            long callsBefore = watching.writeCalls.get();
            hold.release.countDown();
            first.get(60, TimeUnit.SECONDS);
            for (CompletableFuture<Void> put : puts) {
                put.get(60, TimeUnit.SECONDS);
            }
            long calls = watching.writeCalls.get() - callsBefore;
            List<Thread> after = hold.writersAfter;
            assertThat(after).as("every queued record was written by one thread").hasSize((int) calls).containsOnly(after.get(0));
            assertThat(putters).as("the writing thread is one of the queued puts")
                    .contains(after.get(0));
            if (backend == Backend.FILE_CHANNEL) {
                assertThat(calls).as("one positional write for the whole group").isEqualTo(1);
            } else {
                assertThat(calls).as("one copy into the mapping per record").isEqualTo(queued);
            }
        }
        try (BitCask again = BitCask.open(dir, BitCaskOptions.builder().backend(backend).build())) {
            assertThat(again.get("first")).isEqualTo(value(300, 1));
            for (int i = 0; i < queued; i++) {
                assertThat(again.get("k" + i)).isEqualTo(value(100 + i, i + 2));
            }
        }
    }

    @EveryBackend
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFailedGroupWriteFailsEveryPutOfTheGroupAndTheStoreGoesOn(Backend backend) throws Exception {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        WatchingBackend watching = new WatchingBackend(faulty);
        Hold hold = new Hold(watching);
        int queued = 6;
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().segmentBackend(watching).build())) {
            CompletableFuture<Void> first = hold.firstPut(db, threads);
            List<CompletableFuture<Void>> puts = new ArrayList<>();
            for (int i = 0; i < queued; i++) {
                puts.add(Hold.queuedPut(db, i, new ArrayList<>(), threads));
            }
            // The held write's second half goes through; the next write, the group's, fails.
            faulty.failCall(2, EnumSet.of(FaultyBackend.Kind.WRITE));
            hold.release.countDown();
            first.get(60, TimeUnit.SECONDS);
            for (CompletableFuture<Void> put : puts) {
                assertThatThrownBy(() -> put.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(BitCaskException.class)
                        .hasMessageContaining("injected");
            }
            watching.midWrite = null;
            db.put("after", value(70, 9));
            assertThat(db.get("k0")).isNull();
            assertThat(db.get("after")).isEqualTo(value(70, 9));
        }
        try (BitCask again = BitCask.open(dir, BitCaskOptions.builder().backend(backend).build())) {
            assertThat(again.get("first")).isEqualTo(value(300, 1));
            assertThat(again.get("after")).as("the record after the hole").isEqualTo(value(70, 9));
            for (int i = 0; i < queued; i++) {
                assertThat(again.get("k" + i)).isNull();
            }
        }
    }

    @EveryBackend
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyReturnedPutOfManyWritersIsFoundAfterReopen(Backend backend) throws Exception {
        long seed = Seeds.base();
        int writers = 16;
        int perWriter = 400;
        int keysPerWriter = 50;
        byte[][][] latest = new byte[writers][keysPerWriter][];
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(256 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            CompletableFuture<?>[] all = new CompletableFuture<?>[writers];
            for (int w = 0; w < writers; w++) {
                int me = w;
                all[w] = CompletableFuture.runAsync(() -> {
                    Random random = new Random(seed + me);
                    for (int i = 0; i < perWriter; i++) {
                        int k = random.nextInt(keysPerWriter);
                        byte[] v = new byte[1 + random.nextInt(4000)];
                        random.nextBytes(v);
                        db.put(me + "-" + k, v);
                        latest[me][k] = v; // after the put returned: this value must survive
                    }
                }, threads);
            }
            CompletableFuture.allOf(all).get(240, TimeUnit.SECONDS);
        }
        try (BitCask again = BitCask.open(dir, o)) {
            for (int w = 0; w < writers; w++) {
                for (int k = 0; k < keysPerWriter; k++) {
                    assertThat(again.get(w + "-" + k)).as("key %d-%d, seed %d", w, k, seed).isEqualTo(latest[w][k]);
                }
            }
        }
    }
}
