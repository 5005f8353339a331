package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A write group's leader can be held in the middle of its write, as a descheduled thread or a
 * throttled {@code pwrite} is. A later put must not count as durable under {@code ALWAYS} until
 * the earlier record is written and forced too, a put on a virtual thread must park while it
 * waits, and a later put, a delete, a batch, a merge and close must wait for the write before
 * they go on.
 */
class CopyInFlightTest {

    @TempDir
    Path dir;

    /** Threads of their own: the common pool may have a single thread on a small machine. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** Holds the first write of {@code held}'s thread in its middle until {@code release}. */
    private static final class Hold {
        final CountDownLatch copying = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile Thread held;

        /** Installs itself as the backend's mid-write hook, in place of any earlier one. */
        Hold(WatchingBackend watching) {
            watching.midWrite = name -> {
                if (Thread.currentThread() == held) {
                    held = null;
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

    private static byte[] value(int len, int fill) {
        byte[] v = new byte[len];
        Arrays.fill(v, (byte) fill);
        return v;
    }

    /** Starts a put of {@code value} under {@code key} and returns once it is held in the middle of its copy. */
    private CompletableFuture<Void> heldPut(BitCask db, Hold hold, String key, byte[] value) throws InterruptedException {
        CompletableFuture<Void> put = CompletableFuture.runAsync(() -> {
            hold.held = Thread.currentThread();
            db.put(key, value);
        }, threads);
        assertThat(hold.copying.await(60, TimeUnit.SECONDS)).as("the put of %s reached its copy", key).isTrue();
        return put;
    }

    private static void assertStillWaiting(CompletableFuture<?> f, String what) throws Exception {
        assertThatThrownBy(() -> f.get(200, TimeUnit.MILLISECONDS)).as(what).isInstanceOf(TimeoutException.class);
    }

    @EveryBackend
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aLaterPutIsNotDurableBeforeAnEarlierCopyIs(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        Hold hold = new Hold(watching);
        BitCaskOptions o = BitCaskOptions.builder().syncPolicy(SyncPolicy.ALWAYS).segmentBackend(watching).build();
        try (BitCask db = BitCask.open(dir, o)) {
            CompletableFuture<Void> early = heldPut(db, hold, "early", value(4000, 1));
            CompletableFuture<Void> later = CompletableFuture.runAsync(() -> db.put("later", value(100, 2)), threads);
            assertStillWaiting(later, "a force made while the earlier range is half written covers neither");
            hold.release.countDown();
            early.get(60, TimeUnit.SECONDS);
            later.get(60, TimeUnit.SECONDS);
            assertThat(db.get("early")).isEqualTo(value(4000, 1));
            assertThat(db.get("later")).isEqualTo(value(100, 2));
        }
    }

    /**
     * A forced put on a virtual thread behind a copy in flight parks until the copy ends: yielding
     * instead keeps its carrier from the very thread whose copy it waits for. JDK 21 and newer.
     */
    @EveryBackend
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aForcedPutOnAVirtualThreadBehindACopyParks(Backend backend) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
        WatchingBackend watching = new WatchingBackend(backend.create());
        Hold hold = new Hold(watching);
        BitCaskOptions o = BitCaskOptions.builder().syncPolicy(SyncPolicy.ALWAYS).segmentBackend(watching).build();
        try (BitCask db = BitCask.open(dir, o)) {
            CompletableFuture<Void> early = heldPut(db, hold, "early", value(4000, 1));
            AtomicReference<Thread> waiting = new AtomicReference<>();
            CompletableFuture<Void> later = new CompletableFuture<>();
            Runnable put = () -> {
                waiting.set(Thread.currentThread());
                try {
                    db.put("later", value(100, 2));
                    later.complete(null);
                } catch (RuntimeException e) {
                    later.completeExceptionally(e);
                }
            };
            // Thread.startVirtualThread is JDK 21's; this code compiles for 17.
            Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, put);
            boolean parked = false;
            for (int i = 0; i < 5000 && !parked; i++) { // up to about 5 s of samples
                Thread t = waiting.get();
                Thread.State state = t == null ? Thread.State.NEW : t.getState();
                parked = state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING;
                Thread.sleep(1);
            }
            assertThat(parked).as("the later put parked while the earlier copy was held").isTrue();
            assertThat(later).isNotDone();
            hold.release.countDown();
            early.get(60, TimeUnit.SECONDS);
            later.get(60, TimeUnit.SECONDS);
            assertThat(db.get("later")).isEqualTo(value(100, 2));
        }
    }

    @EveryBackend
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void exclusiveChangesWaitForACopyInFlight(Backend backend) throws Exception {
        WatchingBackend watching = new WatchingBackend(backend.create());
        Hold hold = new Hold(watching);
        BitCaskOptions o = BitCaskOptions.builder().segmentSize(64 << 10).segmentBackend(watching).build();
        BitCask db = BitCask.open(dir, o);
        try {
            db.put("gone", value(10, 3));
            CompletableFuture<Void> early = heldPut(db, hold, "early", value(4000, 1));
            // A put queues behind the write in flight, for the next group.
            CompletableFuture<Void> beside = CompletableFuture.runAsync(() -> db.put("beside", value(50, 4)), threads);
            CompletableFuture<Boolean> delete = CompletableFuture.supplyAsync(() -> db.delete("gone"), threads);
            CompletableFuture<Void> batch = CompletableFuture.runAsync(() -> db.write(new WriteBatch().put("b1", value(5, 5))), threads);
            CompletableFuture<Void> merge = CompletableFuture.runAsync(db::merge, threads);
            assertStillWaiting(beside, "a put waits for the write in flight");
            assertStillWaiting(delete, "a delete waits for the copy");
            assertStillWaiting(batch, "a batch waits for the copy");
            assertStillWaiting(merge, "a merge waits for the copy");
            hold.release.countDown();
            early.get(60, TimeUnit.SECONDS);
            beside.get(60, TimeUnit.SECONDS);
            assertThat(delete.get(60, TimeUnit.SECONDS)).isTrue();
            batch.get(60, TimeUnit.SECONDS);
            merge.get(60, TimeUnit.SECONDS);
            Hold second = new Hold(watching);
            CompletableFuture<Void> last = heldPut(db, second, "last", value(3000, 6));
            CompletableFuture<Void> close = CompletableFuture.runAsync(db::close, threads);
            assertStillWaiting(close, "close waits for the copy");
            second.release.countDown();
            last.get(60, TimeUnit.SECONDS);
            close.get(60, TimeUnit.SECONDS);
        } finally {
            db.close();
        }
        try (BitCask again = BitCask.open(dir, BitCaskOptions.builder().segmentSize(64 << 10).backend(backend).build())) {
            assertThat(again.get("early")).isEqualTo(value(4000, 1));
            assertThat(again.get("beside")).isEqualTo(value(50, 4));
            assertThat(again.get("gone")).isNull();
            assertThat(again.get("b1")).isEqualTo(value(5, 5));
            assertThat(again.get("last")).isEqualTo(value(3000, 6));
        }
    }
}
