package io.caskbench.bench.store.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The latency benchmarks' store holds every key it was filled with, merges back to back beside its readers,
 * and fails a run in which no merge completed.
 */
class LatencyStoreTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aStoreFilledTwiceMergesBesideItsReadersAndLosesNoKey() throws InterruptedException {
        Workload workload = Workload.decimal(2_000, 100, KeyOrder.RANDOM);
        LatencyStore store = LatencyStore.fill(Backend.FILE_CHANNEL, workload, 2, o -> o.segmentSize(64 * 1024));
        KeyCursor[] cursors = KeyCursor.spread(workload, 4);
        store.mergeBackToBack();
        long sum = 0;
        // Read every key through each cursor while the merge runs (a missing key fails the read), until one
        // merge has completed.
        while (store.merges() == 0) {
            for (KeyCursor cursor : cursors) {
                for (int i = 0; i < workload.keyCount(); i++) {
                    sum += cursor.getNextSum(store.db());
                }
            }
            Thread.sleep(1);
        }
        store.close();
        assertThat(sum).isNotZero();
    }

    @Test
    void aRunInWhichNoMergeCompletedFails() {
        // Written once: nothing is dead, so no merge removes a segment.
        Workload workload = Workload.decimal(1_000, 100, KeyOrder.RANDOM);
        LatencyStore store = LatencyStore.fill(Backend.MAPPED, workload, 1, o -> o);
        store.mergeBackToBack();
        assertThatThrownBy(store::close).hasMessageContaining("no merge completed");
    }

    @Test
    void cursorsStartEvenlySpreadOverTheKeys() {
        Workload workload = Workload.decimal(1_000, 100, KeyOrder.RANDOM);
        KeyCursor[] cursors = KeyCursor.spread(workload, 4);
        // Cursor 1 starts a quarter of the way in: its first key is cursor 0's 251st.
        byte[] first = cursors[1].next().clone();
        for (int i = 0; i < 250; i++) {
            cursors[0].next();
        }
        assertThat(cursors[0].next()).isEqualTo(first);
    }
}
