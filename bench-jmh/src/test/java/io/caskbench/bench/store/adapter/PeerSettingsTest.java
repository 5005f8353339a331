package io.caskbench.bench.store.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.ThreadGang;
import io.caskbench.bench.store.workload.Workload;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The peers' main settings keep the semantics every store's get promises while they save work. */
class PeerSettingsTest {

    private static final StoreConfig CONFIG = new StoreConfig(1_000, 16, true, 8, 64);

    @Test
    void chronicleMapHasUpTo8192SegmentsOfAtLeast128Entries() {
        assertThat(ChronicleMapStore.segments(1_100_000)).isEqualTo(8_192);
        assertThat(ChronicleMapStore.segments(11_000_000)).isEqualTo(8_192);
        assertThat(ChronicleMapStore.segments(110_000)).isEqualTo(512);
        assertThat(ChronicleMapStore.segments(11_000)).isEqualTo(64);
        assertThat(ChronicleMapStore.segments(1_000)).isEqualTo(4);
        assertThat(ChronicleMapStore.segments(10)).isEqualTo(1);
    }

    /**
     * Every Chronicle Map row opens the same kind, so a get row's map has the segments a put row's has: the
     * tuned setting is the main one, for gets too (at the threads suite's 100k keys, 512 segments).
     */
    @Test
    void everyChronicleMapRowGetsIncludedHasTheTunedSegments(@TempDir Path dir) {
        int keys = 100_000;
        try (StoreAdapter store = StoreKind.CHRONICLE_MAP.open(dir, new StoreConfig(keys, 16, true, 100, 1000))) {
            assertThat(((ChronicleMapStore) store).segmentCount()).isEqualTo(ChronicleMapStore.segments(110_000))
                    .isEqualTo(512);
        }
    }

    @Test
    void aSmallChronicleMapWithManySegmentsTakesEveryKey(@TempDir Path dir) {
        int keys = 10_000;
        try (StoreAdapter store = StoreKind.CHRONICLE_MAP.open(dir, new StoreConfig(keys, 16, true, 100, 64))) {
            for (int i = 0; i < keys; i++) {
                store.put(Workload.decimalKey(i), new byte[100]);
            }
            for (int i = 0; i < keys; i++) {
                assertThat(store.get(Workload.decimalKey(i))).as("key %d", i).hasSize(100);
            }
        }
    }

    /** The map is 16 GiB of sparse file; a closed store is cut to its pages, so a copy per fork stays small. */
    @Test
    void aClosedLmdbStoreHoldsOnlyItsPagesAndOpensAgain(@TempDir Path dir) throws Exception {
        StoreConfig config = new StoreConfig(1000, 16, true, 100, 4);
        try (StoreAdapter store = StoreKind.LMDB.open(dir, config)) {
            for (int i = 0; i < 1000; i++) {
                store.put(key(i), value(i));
            }
        }
        assertThat(java.nio.file.Files.size(dir.resolve("data.mdb"))).isLessThan(16L << 20);
        try (StoreAdapter store = StoreKind.LMDB.open(dir, config)) {
            for (int i = 0; i < 1000; i++) {
                assertThat(store.get(key(i))).isEqualTo(value(i));
            }
            store.put(key(1000), value(1000));
            assertThat(store.get(key(1000))).isEqualTo(value(1000));
        }
    }

    private static byte[] key(int i) {
        return String.format("%016d", i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[100];
        java.util.Arrays.fill(v, (byte) i);
        return v;
    }

    @Test
    void lmdbKeepsItsReadTransactionYetAGetSeesEveryEarlierPut(@TempDir Path dir) throws Exception {
        byte[] key = Workload.decimalKey(1);
        try (StoreAdapter store = StoreKind.LMDB.open(dir, CONFIG); ThreadGang gang = new ThreadGang(2, "lmdb")) {
            store.put(key, bytes(1));
            assertThat(store.get(key)).isEqualTo(bytes(1));
            // Another thread's put: this thread's kept snapshot must not hide it.
            gang.run(t -> {
                if (t == 0) {
                    store.put(key, bytes(2));
                }
            });
            assertThat(store.get(key)).isEqualTo(bytes(2));
            // This thread's own put.
            store.put(key, bytes(3));
            assertThat(store.get(key)).isEqualTo(bytes(3));
            // A reader on another thread sees the latest put too.
            AtomicReference<byte[]> seen = new AtomicReference<>();
            gang.run(t -> {
                if (t == 1) {
                    seen.set(store.get(key));
                }
            });
            assertThat(seen.get()).isEqualTo(bytes(3));
        }
    }

    @Test
    void lmdbWithTheTransactionKeptForGoodMissesLaterPuts(@TempDir Path dir) {
        byte[] key = Workload.decimalKey(1);
        try (StoreAdapter store = StoreKind.LMDB_TXN_REUSED.open(dir, CONFIG)) {
            store.put(key, bytes(1));
            assertThat(store.get(key)).isEqualTo(bytes(1));
            store.put(key, bytes(2));
            assertThat(store.get(key)).as("the sensitivity row reads its old snapshot").isEqualTo(bytes(1));
        }
    }

    private static byte[] bytes(int fill) {
        byte[] b = new byte[8];
        java.util.Arrays.fill(b, (byte) fill);
        return b;
    }
}
