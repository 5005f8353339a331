package io.caskbench.bench.store.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.caskbench.bench.store.workload.Workload;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What the contract test does not reach: a slab that grows past its chunks, and an index that is full. */
class InMemoryReferenceStoreTest {

    private static byte[] value(int length, int fill) {
        byte[] v = new byte[length];
        Arrays.fill(v, (byte) fill);
        return v;
    }

    @Test
    void overwritesGrowTheSlabChunkByChunkAndReadTheLatestValue() {
        int big = 4 << 20;
        InMemoryReferenceStore store = new InMemoryReferenceStore(new StoreConfig(4, 16, true, big, 4));
        for (int round = 0; round < 10; round++) {
            for (int k = 0; k < 4; k++) {
                store.put(Workload.decimalKey(k), value(big, round * 4 + k));
            }
        }
        // 40 records of 4 MiB are 160 MiB: the 64 MiB chunk sized for 4 keys had to grow twice.
        for (int k = 0; k < 4; k++) {
            assertThat(store.get(Workload.decimalKey(k))).isEqualTo(value(big, 36 + k));
        }
        assertThat(store.get(Workload.decimalKey(4))).isNull();
    }

    @Test
    void refusesMoreNewKeysThanItsIndexHoldsButTakesOverwrites() {
        InMemoryReferenceStore store = new InMemoryReferenceStore(new StoreConfig(8, 16, true, 8, 4));
        int accepted = 0;
        try {
            while (true) {
                store.put(Workload.decimalKey(accepted), value(8, accepted));
                accepted++;
            }
        } catch (IllegalStateException full) {
            assertThat(full).hasMessageContaining("sized for");
        }
        assertThat(accepted).isEqualTo(12);
        store.put(Workload.decimalKey(3), value(8, 99));
        assertThat(store.get(Workload.decimalKey(3))).isEqualTo(value(8, 99));
        assertThatThrownBy(() -> store.put(Workload.decimalKey(100), value(8, 1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void keysThatDifferOnlyInTheirLastDigitSpreadOverTheIndex() {
        int slots = 1 << 12;
        boolean[] used = new boolean[slots];
        int distinct = 0;
        for (int k = 0; k < slots / 2; k++) {
            int slot = (int) InMemoryReferenceStore.hash(Workload.decimalKey(k)) & (slots - 1);
            if (!used[slot]) {
                used[slot] = true;
                distinct++;
            }
        }
        // A random function fills about 1 - e^-0.5 = 39% of the slots with half as many keys.
        assertThat(distinct).isGreaterThan(slots * 36 / 100);
    }
}
