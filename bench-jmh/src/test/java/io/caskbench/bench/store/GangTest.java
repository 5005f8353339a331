package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.adapter.StoreAdapter;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The gang's reads return every byte of every value they read, summed, so no part of a value copy can be
 * dropped as unused: a store whose values differ only in their last byte gives a different result.
 */
class GangTest {

    private static final int OPS_PER_THREAD = 10;
    private static final int VALUE_SIZE = 100;

    @Test
    void everyByteOfEveryValueReadReachesTheResult() {
        Workload workload = Workload.decimal(Gang.THREADS * OPS_PER_THREAD, 8, KeyOrder.RANDOM);
        Gang gang = new Gang(OPS_PER_THREAD);
        try {
            long reads = (long) Gang.THREADS * OPS_PER_THREAD;
            // Bytes 1, 2, ..., 100: a read that summed only the length or the first bytes would miss most.
            assertThat(gang.read(new FixedValues(1), workload, false)).isEqualTo(reads * 5050);
            // Only the last byte differs: the sum must see it in every read.
            long lastByteOnly = gang.read(new FixedValues(2), workload, false) - gang.read(new FixedValues(1), workload,
                    false);
            assertThat(lastByteOnly).isEqualTo(reads);
            // Mixed: nine reads in ten, each summed whole; the overwrites return nothing.
            FixedValues store = new FixedValues(1);
            assertThat(gang.read(store, workload, true)).isEqualTo(reads * 9 / 10 * 5050);
            assertThat(store.puts.get()).isEqualTo(reads / 10);
        } finally {
            gang.stop();
        }
    }

    /** A store whose every value is 1, 2, ..., 99, then {@code last + 99}. */
    private static final class FixedValues implements StoreAdapter {
        final AtomicLong puts = new AtomicLong();
        private final byte[] value = new byte[VALUE_SIZE];

        FixedValues(int last) {
            for (int i = 0; i < VALUE_SIZE; i++) {
                value[i] = (byte) (i + 1);
            }
            value[VALUE_SIZE - 1] = (byte) (VALUE_SIZE - 1 + last);
        }

        @Override
        public void put(byte[] key, byte[] v) {
            puts.incrementAndGet();
        }

        @Override
        public byte[] get(byte[] key) {
            return value.clone();
        }

        @Override
        public void settle() {
        }

        @Override
        public void close() {
        }
    }
}
