package io.caskbench.bench.store.sustained;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.KeysInStore;
import io.caskbench.bench.store.fixture.WorkloadSpec;
import io.caskbench.bench.store.workload.KeyOrder;
import org.junit.jupiter.api.Test;

/**
 * The sustained-put loop puts until its iteration's time has passed, counts every put, closes the store
 * inside the call, puts nothing if called again, and carries on from the same position next iteration.
 */
class SustainedStoreTest {

    private static final int KEYS = 1_000;

    @Test
    void putsForTheIterationThenClosesAndCarriesOn() {
        long[] now = {0};
        // Every look at the clock moves it on by one: start, then one look per CHECK_EVERY puts.
        SustainedStore sustained = new SustainedStore(() -> now[0]++);
        KeysInStore.clear();
        try {
            sustained.open(new WorkloadSpec(StoreKind.BITCASK_MAPPED, KEYS, 16, KeyOrder.RANDOM, false));
            sustained.startIteration(3);
            long puts = sustained.putForIteration();
            // Deadline 0 + 3; looks at 1, 2, 3: three rounds of puts.
            assertThat(puts).isEqualTo(3L * SustainedStore.CHECK_EVERY);
            assertThat(sustained.total()).isEqualTo(puts);
            assertThat(sustained.putForIteration()).as("a second call in a done iteration").isZero();
            assertThat(KeysInStore.mean()).isEqualTo(puts / 2.0);

            sustained.startIteration(5);
            long more = sustained.putForIteration();
            assertThat(more).isEqualTo(5L * SustainedStore.CHECK_EVERY);
            assertThat(sustained.total()).isEqualTo(puts + more);
        } finally {
            sustained.close();
        }
    }

    @Test
    void anInMemoryStoreIsNotClosedAndKeepsItsKeys() {
        long[] now = {0};
        SustainedStore sustained = new SustainedStore(() -> now[0]++);
        try {
            sustained.open(new WorkloadSpec(StoreKind.IN_MEMORY_REFERENCE, KEYS, 16, KeyOrder.RANDOM, false));
            sustained.startIteration(5);
            assertThat(sustained.putForIteration()).isEqualTo(5L * SustainedStore.CHECK_EVERY);
            sustained.startIteration(1);
            assertThat(sustained.putForIteration()).isEqualTo(SustainedStore.CHECK_EVERY);
        } finally {
            sustained.close();
        }
    }
}
