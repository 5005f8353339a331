package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.workload.KeyOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Within one invocation each persistent store is filled once: a later fork starts from a copy of the
 * closed files, serves every key, and publishes the disk bytes the fill measured. In-memory stores are
 * filled every time.
 */
class FillCacheTest {

    private static final int KEYS = 2_000;

    @TempDir
    Path cache;

    @BeforeEach
    void useCache() {
        System.setProperty(FillCache.PROPERTY, cache.toString());
    }

    @AfterEach
    void noCache() {
        System.clearProperty(FillCache.PROPERTY);
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void aSecondFillCopiesTheFirstAndServesEveryKey(StoreKind kind) throws Exception {
        assumeTrue(kind.available(), kind + " needs a newer JDK");
        WorkloadSpec spec = new WorkloadSpec(kind, KEYS, 100, KeyOrder.RANDOM, false);
        FilledStore first = new FilledStore();
        first.fill(spec);
        boolean persistent = first.store().persistent();
        double disk;
        try {
            assertThat(first.fromCache()).isFalse();
            disk = Footprint.current().diskBytesPerKey();
        } finally {
            first.close();
        }
        assertThat(Files.exists(cache.resolve(FillCache.key(spec)))).isEqualTo(persistent);

        FilledStore second = new FilledStore();
        second.fill(spec);
        try {
            assertThat(second.fromCache()).isEqualTo(persistent);
            if (persistent) {
                assertThat(Footprint.current().diskBytesPerKey()).as("the fill's own measurement").isEqualTo(disk);
            }
            PeersSingleThread reader = new PeersSingleThread();
            for (int i = 0; i < KEYS; i++) {
                assertThat(reader.get(second)).isNotNull();
            }
        } finally {
            second.close();
        }
    }
}
