package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write stall through the store: writers that outrun the merges are held to the space bound, and
 * nothing that makes room (deletes, merges) ever waits for it. The work is a fixed number of puts and
 * every assertion is on bytes or on what returned, so the tests end alike on any machine.
 */
class WriteStallStoreTest {

    private static final int SEGMENT = (int) BitCaskOptions.MIN_SEGMENT_SIZE;
    private static final double BOUND = 1.5;

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void writersThatOutrunTheMergesAreHeldToTheSpaceBound() throws Exception {
        int keys = 1_000;
        int value = 100;
        int writers = 4;
        int putsPerWriter = 25_000;
        BitCaskOptions o = BitCaskOptions.builder().segmentSize(SEGMENT).autoMerge(true).maxSpaceAmplification(BOUND)
                .writeStallTimeout(Duration.ofMinutes(5)).build();
        int record = BitCask.recordSize(6, value);
        long live = (long) keys * record; // every key holds one value of the same size throughout
        long bound = (long) (BOUND * live) + SEGMENT;
        // What the bound may be passed by: the puts still copying when the debt daemon summed the segments,
        // which it counts live as well as data.
        long slack = 4L * writers * record;
        AtomicLong worstData = new AtomicLong();
        AtomicReference<BitCaskStats> worst = new AtomicReference<>();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int k = 0; k < keys; k++) {
                db.put(key(k), Bytes.filled(value, k));
            }
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (writing.get()) {
                    BitCaskStats s = db.stats();
                    if (s.liveBytes() + s.deadBytes() > worstData.get()) {
                        worstData.set(s.liveBytes() + s.deadBytes());
                        worst.set(s);
                    }
                }
            });
            sampler.start();
            List<Thread> threads = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int w = 0; w < writers; w++) {
                Random rnd = new Random(w);
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < putsPerWriter; i++) {
                            int k = rnd.nextInt(keys);
                            db.put(key(k), Bytes.filled(value, k + i));
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            writing.set(false);
            sampler.join();
            assertThat(failure.get()).isNull();
            assertThat(db.size()).isEqualTo(keys);
            for (int k = 0; k < keys; k++) {
                assertThat(db.get(key(k))).hasSize(value);
            }
        }
        assertThat(worstData.get()).as("data bytes at the worst sample, over %s x %d live + one segment = %d: %s",
                BOUND, live, bound, worst.get()).isLessThanOrEqualTo(bound + slack);
    }

    @Test
    @Timeout(300)
    void deletesAndMergesNeverWaitForAStallAndBatchesWaitAndTimeOutCleanly() throws Exception {
        WatchingBackend watching = new WatchingBackend(Backend.FILE_CHANNEL.create());
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean holding = new AtomicBoolean(true);
        watching.midWrite = name -> {
            // The first merge that copies a record stops in the middle of its output until the test lets it go.
            if (name.endsWith(".data.tmp") && holding.get()) {
                held.countDown();
                awaitQuietly(release);
            }
        };
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(SEGMENT).autoMerge(true)
                .maxSpaceAmplification(BOUND).writeStallTimeout(Duration.ofMillis(200)).build();
        int keys = 500;
        int value = 200;
        try (BitCask db = BitCask.open(dir, o)) {
            try {
                for (int k = 0; k < keys; k++) {
                    db.put(key(k), Bytes.filled(value, k));
                }
                // Overwrite until a put times out at the bound with the merge held: nothing can make room now.
                BitCaskException stopped = overwriteUntilStopped(db, keys, value, held);
                assertThat(stopped).hasMessageContaining("maxSpaceAmplification 1.50").hasMessageContaining("writeStallTimeout");
                long stalled = db.counters().stalledPuts();
                assertThat(stalled).isPositive();

                assertThat(db.delete(key(0))).as("a delete passes the stall").isTrue();
                db.write(new WriteBatch().delete(key(1)).delete(key(2)));
                assertThat(db.get(key(1))).as("a batch of deletes passes the stall").isNull();
                byte[] before = db.get(key(3));
                assertThatThrownBy(() -> db.write(new WriteBatch().put(key(3), new byte[1]).delete(key(4))))
                        .as("a batch with a put waits, and times out cleanly")
                        .isInstanceOf(BitCaskException.class).hasMessageContaining("space bound");
                assertThat(db.get(key(3))).as("nothing of the timed-out batch was written").isEqualTo(before);
                assertThat(db.get(key(4))).isNotNull();
                assertThat(db.counters().stalledPuts()).isGreaterThan(stalled);
            } finally {
                holding.set(false);
                release.countDown();
            }
            // The merge goes on; puts get through once merges have made room, each waiting at most the timeout.
            int done = 0;
            for (int i = 0; done < 2 * keys; i++) {
                try {
                    db.put(key(5 + i % (keys - 5)), Bytes.filled(value, i));
                    done++;
                } catch (BitCaskException stillStalled) {
                    assertThat(stillStalled).hasMessageContaining("space bound");
                }
            }
            assertThat(db.size()).isEqualTo(keys - 3);
            BitCaskStats s = db.stats();
            assertThat(s.liveBytes() + s.deadBytes()).isLessThanOrEqualTo((long) (BOUND * s.liveBytes()) + 2L * SEGMENT);
        }
    }

    @Test
    @Timeout(300)
    void closeLetsPutsWaitingAtTheBoundGo() throws Exception {
        WatchingBackend watching = new WatchingBackend(Backend.FILE_CHANNEL.create());
        CountDownLatch release = new CountDownLatch(1);
        watching.midWrite = name -> {
            if (name.endsWith(".data.tmp")) {
                awaitQuietly(release);
            }
        };
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(watching).segmentSize(SEGMENT).autoMerge(true)
                .maxSpaceAmplification(BOUND).writeStallTimeout(Duration.ofMinutes(5)).build();
        BitCask db = BitCask.open(dir, o);
        AtomicReference<Throwable> writerEnded = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; ; i++) {
                    db.put(key(i % 500), Bytes.filled(200, i));
                }
            } catch (Throwable e) {
                writerEnded.set(e);
            }
        });
        try {
            writer.start();
            while (db.counters().stalledPuts() == 0) {
                Thread.sleep(5);
            }
        } finally {
            // The held merge must let go for close to take the merge lock; the writer is still stalled or
            // writing, and close ends it either way.
            release.countDown();
            db.close();
        }
        writer.join();
        assertThat(writerEnded.get()).isInstanceOf(IllegalStateException.class);
    }

    /** Overwrites until a put times out at the bound after the merge was held; returns that timeout. */
    private static BitCaskException overwriteUntilStopped(BitCask db, int keys, int value, CountDownLatch held) {
        for (int i = 0; ; i++) {
            try {
                db.put(key(i % keys), Bytes.filled(value, i));
            } catch (BitCaskException timedOut) {
                if (held.getCount() == 0) {
                    return timedOut;
                }
            }
        }
    }

    private static String key(int k) {
        return String.format("k%05d", k);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
