package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * Put rounds close the store in the batch that ends a round (measured time), open the next one in the
 * untimed setup, and, prefilled, hold every key while measured; the keys held are recorded per batch.
 */
class PutRoundsTest {

    private static final int KEYS = 1_000;
    private static final int BATCH = 100;

    @Test
    void theBatchThatEndsARoundClosesTheStoreAndTheSetupOpensAnEmptyOne() {
        PutRounds rounds = new PutRounds();
        KeysInStore.clear();
        try {
            rounds.open(spec(StoreKind.BITCASK_MAPPED), BATCH, false);
            for (int b = 0; b < KEYS / BATCH; b++) {
                rounds.roll();
                assertThat(rounds.store()).as("open before batch %d", b).isNotNull();
                rounds.putBatch();
            }
            assertThat(rounds.store()).as("closed by the round's last batch").isNull();
            rounds.roll();
            assertThat(rounds.store().get(key(rounds.workload(), 0))).as("a fresh, empty store").isNull();
            // Batches start at 0, 100, ... 900 keys held: midway 50 .. 950, mean 500, then 50 again.
            assertThat(KeysInStore.mean()).isEqualTo((500.0 * 10 + 50) / 11);
        } finally {
            rounds.close();
        }
    }

    @Test
    void aPrefilledStoreHoldsEveryKeyAndKeepsThemThroughTheClose() {
        PutRounds rounds = new PutRounds();
        KeysInStore.clear();
        try {
            rounds.open(spec(StoreKind.BITCASK_MAPPED), BATCH, true);
            Workload workload = rounds.workload();
            for (int i = 0; i < KEYS; i++) {
                assertThat(rounds.store().get(key(workload, i))).as("prefilled key %d", i).isNotNull();
            }
            for (int b = 0; b < KEYS / BATCH; b++) {
                rounds.roll();
                rounds.putBatch();
            }
            assertThat(rounds.store()).as("closed by the round's last batch").isNull();
            rounds.roll();
            for (int i = 0; i < KEYS; i++) {
                assertThat(rounds.store().get(key(workload, i))).as("reopened key %d", i).isNotNull();
            }
            assertThat(KeysInStore.mean()).isEqualTo(KEYS);
        } finally {
            rounds.close();
        }
    }

    @Test
    void aPrefilledInMemoryStoreIsNeverClosedAndStaysFull() {
        PutRounds rounds = new PutRounds();
        try {
            rounds.open(spec(StoreKind.IN_MEMORY_REFERENCE), BATCH, true);
            for (int b = 0; b < 2 * KEYS / BATCH; b++) {
                rounds.roll();
                rounds.putBatch();
                assertThat(rounds.store()).as("after batch %d", b).isNotNull();
            }
            assertThat(rounds.store().get(key(rounds.workload(), KEYS - 1))).isNotNull();
        } finally {
            rounds.close();
        }
    }

    @Test
    void keysHeldMidwayCountInsertsUntilTheStoreIsFull() {
        assertThat(KeysInStore.midway(0, 0, 100, 1_000)).isEqualTo(50);
        assertThat(KeysInStore.midway(0, 950, 100, 1_000)).isEqualTo((950 + 1_000) / 2.0);
        assertThat(KeysInStore.midway(1_000, 0, 100, 1_000)).isEqualTo(1_000);
        assertThat(KeysInStore.midway(0, 5_000, 100, 1_000)).isEqualTo(1_000);
    }

    private static WorkloadSpec spec(StoreKind kind) {
        return new WorkloadSpec(kind, KEYS, 16, KeyOrder.RANDOM, false);
    }

    private static byte[] key(Workload workload, int position) {
        return workload.fillKey(position, workload.keyBuffer());
    }
}
