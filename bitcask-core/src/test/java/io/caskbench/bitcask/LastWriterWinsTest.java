package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.RegisterHistory;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many writers on the same few keys, readers, and merges back to back: every key's history of puts and
 * gets must be linearizable as a register ({@link RegisterHistory}), that is, the newest put wins and no
 * get returns a value older than one a completed put replaced. The gets after the threads end, and again
 * after a reopen, belong to the same histories, so the value that survives is the last one too.
 *
 * <p>Every value is unique (writer and sequence number) and carries a pattern derived from it, so a get
 * that returned wrong bytes fails before the history is checked. Bounded in time
 * ({@code -Dcaskbench.stressMillis=N} runs longer); the seed is printed on failure
 * ({@code -Dcaskbench.seed} replays its key and size choices; thread timing is not replayable).
 */
class LastWriterWinsTest {

    private static final long MILLIS = Long.getLong("caskbench.stressMillis", 2000);
    private static final int KEYS = 4;
    private static final int WRITERS = 6;
    private static final int READERS = 2;
    /** Operations each thread records at most, so a fast machine's histories stay a few tens of MB. */
    private static final int MAX_OPS = 150_000;

    @TempDir
    Path dir;

    @EveryBackend
    void everyKeyReadsAsTheLastPutWhileWritersRaceAndMergesRun(Backend backend) throws Exception {
        long seed = Seeds.base();
        // Small segments: the writers roll over often, so merges always have sealed segments to rewrite.
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(256 << 10).build();
        List<RegisterHistory[]> recorded = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (BitCask db = BitCask.open(dir, o)) {
            RegisterHistory[] initial = histories();
            for (int k = 0; k < KEYS; k++) {
                long value = id(WRITERS, k); // a writer number no thread uses
                long t0 = System.nanoTime();
                db.put(key(k), encode(value, 8));
                initial[k].write(value, t0, System.nanoTime());
            }
            recorded.add(initial);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                RegisterHistory[] mine = histories();
                recorded.add(mine);
                SplittableRandom rnd = new SplittableRandom(seed + w);
                threads.add(new Thread(() -> {
                    for (int seq = 0; seq < MAX_OPS && !stop.get(); seq++) {
                        int k = rnd.nextInt(KEYS);
                        long value = id(writer, seq);
                        byte[] bytes = encode(value, 8 + rnd.nextInt(400));
                        long t0 = System.nanoTime();
                        db.put(key(k), bytes);
                        mine[k].write(value, t0, System.nanoTime());
                    }
                }));
            }
            for (int r = 0; r < READERS; r++) {
                RegisterHistory[] mine = histories();
                recorded.add(mine);
                SplittableRandom rnd = new SplittableRandom(seed + 100 + r);
                threads.add(new Thread(() -> {
                    for (int n = 0; n < MAX_OPS && !stop.get(); n++) {
                        int k = rnd.nextInt(KEYS);
                        long t0 = System.nanoTime();
                        byte[] got = db.get(key(k));
                        mine[k].read(decode(got), t0, System.nanoTime());
                    }
                }));
            }
            threads.add(new Thread(() -> {
                while (!stop.get()) {
                    db.merge();
                }
            }));
            threads.forEach(t -> t.setUncaughtExceptionHandler((th, e) -> errors.add(e)));
            threads.forEach(Thread::start);
            Thread.sleep(MILLIS);
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(1));
                assertThat(t.isAlive()).as("%s ended", t.getName()).isFalse();
            }
            assertThat(errors).as("seed %d", seed).isEmpty();
            recorded.add(readAll(db));
        }
        try (BitCask db = BitCask.open(dir, o)) {
            recorded.add(readAll(db));
        }

        for (int k = 0; k < KEYS; k++) {
            RegisterHistory history = new RegisterHistory();
            for (RegisterHistory[] h : recorded) {
                history.addAll(h[k]);
            }
            Optional<String> violation = history.violation();
            assertThat(violation).as("key %d, %d operations, seed %d: %s", k, history.size(), seed,
                    violation.orElse("")).isEmpty();
        }
    }

    @Test
    void theCheckerCatchesAStaleRead() {
        RegisterHistory h = new RegisterHistory();
        h.write(1, 0, 10);
        h.write(2, 20, 30);
        h.read(1, 40, 50); // value 1 after the put of 2 had returned
        assertThat(h.violation()).isPresent();

        RegisterHistory concurrent = new RegisterHistory();
        concurrent.write(1, 0, 10);
        concurrent.write(2, 20, 60);
        concurrent.read(1, 30, 40); // the put of 2 had not returned: either value is allowed
        concurrent.read(2, 50, 70);
        assertThat(concurrent.violation()).isEmpty();
    }

    @Test
    void theCheckerCatchesReadsThatDisagreeOnTheOrder() {
        RegisterHistory h = new RegisterHistory();
        h.write(1, 0, 100);
        h.write(2, 0, 100);
        h.read(1, 10, 20);
        h.read(2, 30, 40);
        h.read(1, 50, 60); // 1, then 2, then 1 again: no single order of the two puts allows it
        assertThat(h.violation()).isPresent();

        RegisterHistory unwritten = new RegisterHistory();
        unwritten.write(1, 0, 10);
        unwritten.read(7, 20, 30);
        assertThat(unwritten.violation()).contains("a read returned 7, which no write wrote");

        RegisterHistory early = new RegisterHistory();
        early.write(1, 50, 60);
        early.read(1, 10, 20);
        assertThat(early.violation()).contains("a read returned 1 before the write of it began");
    }

    private static RegisterHistory[] histories() {
        RegisterHistory[] h = new RegisterHistory[KEYS];
        for (int k = 0; k < KEYS; k++) {
            h[k] = new RegisterHistory();
        }
        return h;
    }

    /** One get of every key, as a history of its own. */
    private static RegisterHistory[] readAll(BitCask db) {
        RegisterHistory[] h = histories();
        for (int k = 0; k < KEYS; k++) {
            long t0 = System.nanoTime();
            byte[] got = db.get(key(k));
            h[k].read(decode(got), t0, System.nanoTime());
        }
        return h;
    }

    private static String key(int k) {
        return "key-" + k;
    }

    private static long id(int writer, int seq) {
        return ((long) writer << 40) | seq;
    }

    /** The value's id, then bytes that follow from it, so a wrong or torn value cannot pass as another. */
    private static byte[] encode(long value, int length) {
        ByteBuffer b = ByteBuffer.allocate(length).putLong(value);
        while (b.hasRemaining()) {
            b.put((byte) (value * 31 + b.position()));
        }
        return b.array();
    }

    private static long decode(byte[] bytes) {
        assertThat(bytes).as("a key that was put before any reader started").isNotNull();
        long value = ByteBuffer.wrap(bytes).getLong();
        assertThat(bytes).as("the bytes of value %d", value).isEqualTo(encode(value, bytes.length));
        return value;
    }
}
