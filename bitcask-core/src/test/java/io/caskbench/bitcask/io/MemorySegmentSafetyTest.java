package io.caskbench.bitcask.io;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link Backend#MEMORY_SEGMENT} is for: a read that loses a race with the release of its
 * mapping fails with an exception and never crashes the JVM. The first test takes away the reader
 * gate, which is what a flaw in it would do; the second races the whole store. Run only on this
 * backend: on {@code MAPPED} a lost race of the first kind is a SIGSEGV. Each runs for
 * {@code caskbench.stressMillis} (default 2 s) and asserts outcomes, never timings.
 */
@EnabledForJreRange(min = JRE.JAVA_22)
class MemorySegmentSafetyTest {

    private static final long MILLIS = Long.getLong("caskbench.stressMillis", 2000);
    private static final int CHUNK = 4 << 20;
    private static final int CHUNKS = 4;

    @TempDir
    Path dir;

    /**
     * Readers copy 4 MiB at a time out of a segment, with no gate, while another thread closes it:
     * each copy returns the right bytes or throws {@link IllegalStateException}, and every reader
     * ends with that exception.
     */
    @Test
    void readersOfASegmentClosedUnderThemGetAnExceptionNeverACrash() throws Exception {
        SegmentBackend backend = Backends.segmentBackend(Backend.MEMORY_SEGMENT);
        byte[] data = new byte[CHUNK * CHUNKS];
        new Random(1).nextBytes(data);
        Path file = dir.resolve("segment.data");
        try (SegmentWriter w = backend.openWritable(file, data.length)) {
            w.write(0, data, 0, data.length);
        }
        Random timing = new Random(2);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicLong endedInsideTheMapping = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
        int rounds = 0;
        while (rounds < 3 || System.nanoTime() < deadline) {
            // Read-only, so that close unmaps at once instead of forcing first: more reads are
            // still inside the mapping when it goes.
            SegmentReader segment = backend.openReadOnly(file);
            CountDownLatch reading = new CountDownLatch(2);
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int first = r;
                Thread t = new Thread(() -> {
                    byte[] buf = new byte[CHUNK];
                    reading.countDown();
                    for (long i = first; ; i++) {
                        int chunk = (int) (i % CHUNKS);
                        try {
                            segment.read((long) chunk * CHUNK, buf, 0, CHUNK);
                        } catch (IllegalStateException closed) {
                            if (!closed.getMessage().contains("is closed")) {
                                endedInsideTheMapping.incrementAndGet(); // the arena's own "Already closed"
                            }
                            return;
                        } catch (Throwable t2) {
                            errors.add(t2);
                            return;
                        }
                        if (!Arrays.equals(buf, 0, CHUNK, data, chunk * CHUNK, (chunk + 1) * CHUNK)) {
                            errors.add(new AssertionError("wrong bytes in chunk " + chunk));
                            return;
                        }
                    }
                });
                t.start();
                readers.add(t);
            }
            reading.await();
            Thread.sleep(timing.nextInt(3));
            segment.close();
            for (Thread t : readers) {
                t.join(TimeUnit.MINUTES.toMillis(1));
                assertThat(t.isAlive()).as("a reader still running after the close").isFalse();
            }
            assertThat(errors).isEmpty();
            rounds++;
        }
        System.out.println(rounds + " rounds, " + endedInsideTheMapping.get() + " reads stopped by the arena's close");
    }

    /**
     * Readers of the whole store while a merger merges and writes, and the store is closed under
     * both: each get returns the value last written for its key, or the read ends in
     * {@link IllegalStateException} (the store is closed) or {@link BitCaskException}.
     */
    @Test
    void readersRacingCloseAndMergeGetValuesOrAnExceptionNeverACrash() throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(Backend.MEMORY_SEGMENT).segmentSize(64 << 10).build();
        SplittableRandom timing = new SplittableRandom(3);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
        int rounds = 0;
        while (rounds < 3 || System.nanoTime() < deadline) {
            BitCask db = BitCask.open(dir.resolve("store" + rounds), o);
            for (int k = 0; k < 200; k++) {
                db.put("k" + k, value(k));
            }
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> {
                try {
                    while (true) {
                        db.merge();
                        for (int k = 0; k < 200; k += 3) {
                            db.put("k" + k, value(k));
                        }
                    }
                } catch (IllegalStateException | BitCaskException closed) {
                    // the store was closed under the merge
                } catch (Throwable t) {
                    errors.add(t);
                }
            }));
            for (int r = 0; r < 2; r++) {
                long seed = rounds * 2L + r;
                threads.add(new Thread(() -> {
                    SplittableRandom keys = new SplittableRandom(seed);
                    try {
                        while (true) {
                            int k = keys.nextInt(200);
                            byte[] v = db.get("k" + k);
                            if (!Arrays.equals(v, value(k))) {
                                errors.add(new AssertionError("k" + k + " read as " + Arrays.toString(v)));
                                return;
                            }
                        }
                    } catch (IllegalStateException | BitCaskException closed) {
                        // the store was closed under the read
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }));
            }
            threads.forEach(Thread::start);
            Thread.sleep(timing.nextInt(6));
            db.close();
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(1));
                assertThat(t.isAlive()).as("a thread still running after the close").isFalse();
            }
            assertThat(errors).isEmpty();
            rounds++;
        }
    }

    private static byte[] value(int key) {
        return Bytes.filled(300, key);
    }
}
