package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.workload.KeyOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A store's footprint is measured with its background work done: BitCask writes the hint file of its
 * active segment only at close, so a disk figure taken while the store was open left it out.
 */
class FootprintTest {

    private static final int KEYS = 20_000;

    @Test
    void bitCasksDiskFigureIncludesEveryHintFileItWillEverWrite() throws Exception {
        FilledStore filled = new FilledStore();
        filled.fill(new WorkloadSpec(StoreKind.BITCASK_MAPPED, KEYS, 100, KeyOrder.RANDOM, false));
        try {
            Footprint published = Footprint.current();
            Path dir = filled.dir();
            filled.store().close();
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".hint"));
            }
            assertThat(published.diskBytesPerKey() * KEYS).isEqualTo((double) Footprint.diskBytes(dir));
        } finally {
            filled.close();
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void everyStoreIsMeasuredAndServesEveryKeyAfterwards(StoreKind kind) {
        assumeTrue(kind.available(), kind + " needs a newer JDK");
        FilledStore filled = new FilledStore();
        filled.fill(new WorkloadSpec(kind, 2_000, 100, KeyOrder.RANDOM, false));
        try {
            Footprint published = Footprint.current();
            assertThat(published.heapBytesPerKey()).isGreaterThanOrEqualTo(0);
            assertThat(published.diskBytesPerKey()).isGreaterThanOrEqualTo(0);
            if (kind.name().startsWith("BITCASK")) {
                assertThat(published.indexBytesPerKey()).isGreaterThan(16);
            }
            PeersSingleThread reader = new PeersSingleThread();
            for (int i = 0; i < 2_000; i++) {
                assertThat(reader.get(filled)).isNotNull();
            }
        } finally {
            filled.close();
        }
    }
}
