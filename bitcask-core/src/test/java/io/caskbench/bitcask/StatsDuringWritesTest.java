package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BitCask#stats()} read while writers overwrite a fixed key space on small segments, and a thread
 * merges all the while: the live bytes it reports never count a record beside the one it replaced, beyond
 * the puts still copying, nor a merge's copies beside the records they replace. Every key keeps one value
 * of one size, so the true live bytes are known throughout. The writers do a fixed number of puts.
 */
class StatsDuringWritesTest {

    private static final int KEYS = 1_000;
    private static final int VALUE = 100;
    private static final int WRITERS = 4;

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void theLiveBytesNeverCountAReplacedRecordOrAMergesCopyTwice() throws Exception {
        int record = BitCask.recordSize(6, VALUE);
        long live = (long) KEYS * record;
        BitCaskOptions o = BitCaskOptions.builder().segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE).autoMerge(false).build();
        AtomicLong most = new AtomicLong();
        AtomicReference<BitCaskStats> worst = new AtomicReference<>();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int k = 0; k < KEYS; k++) {
                db.put(key(k), Bytes.filled(VALUE, k));
            }
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread merger = new Thread(() -> {
                try {
                    while (writing.get()) {
                        db.merge();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            Thread sampler = new Thread(() -> {
                while (writing.get()) {
                    BitCaskStats s = db.stats();
                    if (s.liveBytes() > most.get()) {
                        most.set(s.liveBytes());
                        worst.set(s);
                    }
                }
            });
            merger.start();
            sampler.start();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Random rnd = new Random(w);
                Thread t = new Thread(() -> {
                    for (int i = 0; i < 25_000; i++) {
                        int k = rnd.nextInt(KEYS);
                        db.put(key(k), Bytes.filled(VALUE, k + i));
                    }
                });
                t.start();
                writers.add(t);
            }
            for (Thread t : writers) {
                t.join();
            }
            writing.set(false);
            merger.join();
            sampler.join();
            assertThat(failure.get()).isNull();
            assertThat(db.stats().liveBytes()).as("once the writers are done").isEqualTo(live);
        }
        assertThat(most.get()).as("the most live bytes a sample reported (%s); %d are live, and %d puts may be copying",
                worst.get(), live, WRITERS).isLessThanOrEqualTo(live + (long) WRITERS * record);
    }

    private static String key(int k) {
        return String.format("k%05d", k);
    }
}
