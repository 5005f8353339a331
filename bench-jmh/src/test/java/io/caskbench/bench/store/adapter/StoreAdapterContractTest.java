package io.caskbench.bench.store.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.caskbench.bench.ThreadGang;
import io.caskbench.bench.store.workload.Workload;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every store behaves as the benchmarks assume: values round-trip, absent keys read as null, puts
 * replace, arrays are copied both ways, and 1000 threads can use it at once (all but the harness row,
 * which is no store). Runs with the benchmark
 * forks' JVM flags (see the surefire argLine), so a peer that breaks on this JDK fails here first.
 */
class StoreAdapterContractTest {

    private static final int KEYS = 2_000;
    /** Keys of the single-threaded checks: MapDB with a forced commit per put takes about 10 ms a put here. */
    private static final int FEW_KEYS = 500;
    private static final int VALUE = 100;

    private static byte[] value(int i, int version) {
        byte[] v = new byte[VALUE];
        Arrays.fill(v, (byte) (i * 31 + version));
        return v;
    }

    private static StoreAdapter open(StoreKind kind, Path dir) {
        return kind.open(dir, new StoreConfig(KEYS, 16, true, VALUE, 1_024));
    }

    @Test
    void theHarnessStoresNothingAndHandsBackTheKey(@TempDir Path dir) {
        try (StoreAdapter harness = open(StoreKind.HARNESS, dir)) {
            byte[] key = Workload.decimalKey(7);
            harness.put(key, value(7, 1));
            assertThat(harness.get(key)).isSameAs(key);
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = "HARNESS", mode = EnumSource.Mode.EXCLUDE)
    void putGetReplaceAndAbsent(StoreKind kind, @TempDir Path dir) {
        assumeTrue(kind.available(), kind + " needs a newer JDK");
        try (StoreAdapter store = open(kind, dir)) {
            for (int i = 0; i < FEW_KEYS; i++) {
                store.put(Workload.decimalKey(i), value(i, 1));
            }
            for (int i = 0; i < FEW_KEYS; i += 7) {
                store.put(Workload.decimalKey(i), value(i, 2));
            }
            store.settle();
            for (int i = 0; i < FEW_KEYS; i++) {
                assertThat(store.get(Workload.decimalKey(i))).as("key %d", i).isEqualTo(value(i, i % 7 == 0 ? 2 : 1));
            }
            assertThat(store.get(Workload.decimalKey(FEW_KEYS + 1))).isNull();
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = "HARNESS", mode = EnumSource.Mode.EXCLUDE)
    void copiesWhatItIsGivenAndWhatItReturns(StoreKind kind, @TempDir Path dir) {
        assumeTrue(kind.available(), kind + " needs a newer JDK");
        try (StoreAdapter store = open(kind, dir)) {
            byte[] key = Workload.decimalKey(1);
            byte[] val = value(1, 1);
            store.put(key, val);
            Arrays.fill(val, (byte) 0);
            byte[] read = store.get(key);
            assertThat(read).isEqualTo(value(1, 1));
            Arrays.fill(read, (byte) 0);
            key[15] = '2';
            assertThat(store.get(Workload.decimalKey(1))).isEqualTo(value(1, 1));
        }
    }

    /** MapDB with a commit per put is left out: it runs single-threaded, and 4000 forced commits take a minute. */
    @ParameterizedTest
    @EnumSource(value = StoreKind.class, names = {"HARNESS", "MAPDB_TX"}, mode = EnumSource.Mode.EXCLUDE)
    void thousandThreadsReadAndWriteAtOnce(StoreKind kind, @TempDir Path dir) {
        assumeTrue(kind.available(), kind + " needs a newer JDK");
        try (StoreAdapter store = open(kind, dir); ThreadGang gang = new ThreadGang(1_000, "contract")) {
            gang.run(t -> {
                for (int j = 0; j < 2; j++) {
                    int i = t * 2 + j;
                    store.put(Workload.decimalKey(i), value(i, 1));
                }
            });
            gang.run(t -> {
                for (int j = 0; j < 2; j++) {
                    int i = t * 2 + j;
                    assertThat(store.get(Workload.decimalKey(i))).isEqualTo(value(i, 1));
                    store.put(Workload.decimalKey(i), value(i, 2));
                }
            });
            for (int i = 0; i < KEYS; i++) {
                assertThat(store.get(Workload.decimalKey(i))).isEqualTo(value(i, 2));
            }
        }
    }
}
