package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.caskbench.bench.Suite;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.workload.KeyOrder;
import io.caskbench.bench.store.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.Options;

/**
 * Put rounds are one per invocation: each closes its store (measured time), the setup opens the next one
 * (untimed), and, prefilled, the store holds every key while measured; the keys held are recorded per round.
 */
class PutRoundsTest {

    private static final int KEYS = 1_000;

    @Test
    void everyRoundClosesItsStoreOnceSoClosesEqualMeasuredRounds() {
        PutRounds rounds = new PutRounds();
        KeysInStore.clear();
        try {
            rounds.open(spec(StoreKind.BITCASK_MAPPED), KEYS, false);
            int measured = 7;
            for (int r = 0; r < measured; r++) {
                rounds.roll();
                assertThat(rounds.store()).as("open before round %d", r).isNotNull();
                assertThat(rounds.store().get(key(rounds.workload(), 0))).as("a fresh, empty store").isNull();
                rounds.putBatch();
                assertThat(rounds.store()).as("closed by round %d", r).isNull();
            }
            assertThat(rounds.roundsClosed()).isEqualTo(measured);
            assertThat(KeysInStore.mean()).isEqualTo(KEYS / 2.0);
        } finally {
            rounds.close();
        }
    }

    @Test
    void everySuitePutRowPutsItsKeyCountPerInvocationButTheCommitPerPutRows() {
        var suites = io.caskbench.bench.BenchMain.suites().values();
        for (Suite suite : suites) {
            for (Suite.Profile profile : Suite.Profile.values()) {
                for (var builder : suite.runs(profile)) {
                    Options run = builder.build();
                    String what = suite.name() + " " + profile + " " + run.getIncludes();
                    boolean singleThreadPuts = run.getIncludes().stream()
                            .anyMatch(i -> i.contains("SingleThread") && !i.endsWith("get$"));
                    if (singleThreadPuts) {
                        assertThat(run.getIncludes()).as(what).allMatch(i -> i.endsWith("put$"));
                        assertThat(run.getParameter("keyCount").get()).as(what).hasSize(1);
                        String keyCount = run.getParameter("keyCount").get().iterator().next();
                        int ops = run.getOperationsPerInvocation().hasValue()
                                ? run.getOperationsPerInvocation().get() : 0;
                        boolean parity = run.getParameter("store").hasValue()
                                && run.getParameter("store").get().containsAll(List.of(SettingsSuite.PARITY));
                        assertThat(ops).as(what).isEqualTo(parity ? SettingsSuite.PARITY_BATCH : Integer.parseInt(keyCount));
                    }
                }
            }
        }
    }

    @Test
    void aRoundShorterThanTheKeysPutsTheFirstKeysAndAnyLongerOneIsRefused() {
        PutRounds rounds = new PutRounds();
        try {
            rounds.open(spec(StoreKind.BITCASK_MAPPED), KEYS / 10, false);
            rounds.roll();
            rounds.putBatch();
            rounds.roll();
            assertThat(rounds.roundsClosed()).isEqualTo(1);
        } finally {
            rounds.close();
        }
        assertThatThrownBy(() -> new PutRounds().open(spec(StoreKind.HARNESS), KEYS + 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key count");
    }

    @Test
    void aPrefilledStoreHoldsEveryKeyAndKeepsThemThroughTheClose() {
        PutRounds rounds = new PutRounds();
        KeysInStore.clear();
        try {
            rounds.open(spec(StoreKind.BITCASK_MAPPED), KEYS, true);
            Workload workload = rounds.workload();
            for (int i = 0; i < KEYS; i++) {
                assertThat(rounds.store().get(key(workload, i))).as("prefilled key %d", i).isNotNull();
            }
            rounds.roll();
            rounds.putBatch();
            assertThat(rounds.store()).as("closed by the round").isNull();
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
    void aPrefilledInMemoryStoreIsRebuiltFullOutsideTheRound() {
        PutRounds rounds = new PutRounds();
        try {
            rounds.open(spec(StoreKind.IN_MEMORY_REFERENCE), KEYS, true);
            for (int r = 0; r < 3; r++) {
                rounds.roll();
                var measured = rounds.store();
                rounds.putBatch();
                assertThat(rounds.store()).as("not closed in round %d", r).isSameAs(measured);
                rounds.roll();
                assertThat(rounds.store()).as("rebuilt after round %d", r).isNotSameAs(measured);
                for (int i = 0; i < KEYS; i++) {
                    assertThat(rounds.store().get(key(rounds.workload(), i))).as("refilled key %d", i).isNotNull();
                }
            }
            assertThat(rounds.roundsClosed()).isEqualTo(3);
        } finally {
            rounds.close();
        }
    }

    /**
     * A child JVM with a 200 MiB heap runs eight prefilled rounds of the in-memory reference whose keys
     * hold 30 MB: kept across rounds, every round's overwrites would add 30 MB and the fifth round would
     * run out of heap; rebuilt before each round, it needs one 64 MiB slab chunk at a time.
     */
    @Test
    void prefilledRoundsOfTheInMemoryReferenceFitASmallHeap(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx200m", "-cp", System.getProperty("java.class.path"),
                PrefilledReferenceRounds.class.getName()).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
        try {
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
            assertThat(child.exitValue()).as(Files.readString(out)).isZero();
            assertThat(Files.readString(out)).contains("8 rounds");
        } finally {
            child.destroyForcibly();
        }
    }

    /** The child of {@link #prefilledRoundsOfTheInMemoryReferenceFitASmallHeap}. */
    static final class PrefilledReferenceRounds {

        public static void main(String[] args) {
            // 1000 records of 16-byte keys and 30,000-byte values: 30 MB; with room for a round, one slab chunk.
            PutRounds rounds = new PutRounds();
            try {
                rounds.open(new WorkloadSpec(StoreKind.IN_MEMORY_REFERENCE, KEYS, 30_000, KeyOrder.RANDOM, false),
                        KEYS, true);
                for (int r = 0; r < 8; r++) {
                    rounds.roll();
                    rounds.putBatch();
                }
                System.out.println(rounds.roundsClosed() + " rounds");
            } finally {
                rounds.close();
            }
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
