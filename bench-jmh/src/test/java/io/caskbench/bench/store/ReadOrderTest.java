package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Random gets must visit the keys in an order independent of the one they were put in: BitCask appends in
 * arrival order, so gets in fill order would read its log front to back and make a "random" read
 * sequential. Each benchmark's own get path runs here against a store that records what it is asked.
 */
class ReadOrderTest {

    private static final int OPS_PER_THREAD = 20;
    private static final int KEYS = Gang.THREADS * OPS_PER_THREAD;

    @Test
    void singleThreadedGetsDoNotFollowTheFillOrder() {
        check(filled -> {
            PeersSingleThread bench = new PeersSingleThread();
            for (int i = 0; i < KEYS; i++) {
                bench.get(filled);
            }
        });
        check(filled -> {
            BitCaskSingleThread bench = new BitCaskSingleThread();
            for (int i = 0; i < KEYS; i++) {
                bench.get(filled);
            }
        });
        check(filled -> {
            JmhThreadsCrossCheck bench = new JmhThreadsCrossCheck();
            for (int i = 0; i < KEYS; i++) {
                bench.get(filled);
            }
        });
    }

    @Test
    void thousandThreadGetsDoNotFollowTheFillOrder() {
        Gang gang = new Gang(OPS_PER_THREAD);
        try {
            check(filled -> new ThousandThreads().get(filled, gang));
            check(filled -> new ThousandThreads().mixed(filled, gang));
        } finally {
            gang.stop();
        }
    }

    @Test
    void theCheckFailsWhenGetsFollowTheFillOrder() {
        Recorder recorder = new Recorder();
        Workload workload = Workload.decimal(KEYS, 8, KeyOrder.RANDOM);
        FilledStore filled = new FilledStore(workload, recorder);
        recorder.reading = true;
        byte[] buffer = workload.keyBuffer();
        for (int i = 0; i < KEYS; i++) {
            recorder.get(workload.fillKey(i, buffer));
        }
        assertThat(recorder.fillOrderFraction()).isGreaterThan(0.99);
        filled.close();
    }

    /** Fills a recording store in RANDOM order, runs the gets, and checks they did not retrace the fill. */
    private static void check(Consumer<FilledStore> gets) {
        Recorder recorder = new Recorder();
        Workload workload = Workload.decimal(KEYS, 8, KeyOrder.RANDOM);
        FilledStore filled = new FilledStore(workload, recorder);
        assertThat(recorder.fillPosition).hasSize(KEYS);
        recorder.reading = true;
        gets.accept(filled);
        assertThat(recorder.readCount()).as("keys read").isGreaterThan(KEYS / 2);
        // Independent permutations put a read's successor right after it in the fill about once in KEYS.
        assertThat(recorder.fillOrderFraction()).as("reads that follow the fill order").isLessThan(0.01);
        filled.close();
    }

    /** A store that remembers the position of every key in the fill and, per thread, the keys read. */
    private static final class Recorder implements StoreAdapter {
        final Map<Long, Integer> fillPosition = new HashMap<>();
        final Map<Thread, List<Long>> reads = new HashMap<>();
        volatile boolean reading;

        @Override
        public synchronized void put(byte[] key, byte[] value) {
            if (!reading) {
                fillPosition.put(index(key), fillPosition.size());
            }
        }

        @Override
        public synchronized byte[] get(byte[] key) {
            reads.computeIfAbsent(Thread.currentThread(), t -> new ArrayList<>()).add(index(key));
            return new byte[8];
        }

        synchronized int readCount() {
            return reads.values().stream().mapToInt(List::size).sum();
        }

        /** Fraction of consecutive reads of one thread whose keys were also put one right after the other. */
        synchronized double fillOrderFraction() {
            long pairs = 0;
            long following = 0;
            for (List<Long> sequence : reads.values()) {
                for (int i = 1; i < sequence.size(); i++) {
                    pairs++;
                    if (fillPosition.get(sequence.get(i)) == fillPosition.get(sequence.get(i - 1)) + 1) {
                        following++;
                    }
                }
            }
            return (double) following / pairs;
        }

        private static long index(byte[] key) {
            return Long.parseLong(new String(key, StandardCharsets.US_ASCII));
        }

        @Override
        public void settle() {
        }

        @Override
        public void close() {
        }
    }
}
