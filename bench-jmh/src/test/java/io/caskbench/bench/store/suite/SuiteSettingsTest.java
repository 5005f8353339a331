package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.Suite;
import io.caskbench.bench.files.FilesSuite;
import io.caskbench.bench.openloop.OpenLoopProfiler;
import io.caskbench.bench.store.fixture.Gang;
import io.caskbench.bench.store.single.PeersSingleThread;
import io.caskbench.bench.store.threads.ThousandThreads;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;

/**
 * Every run of the measuring profiles has what a published row needs: at least three forks, so the
 * comparison can print a spread, and a warm-up iteration, so no cold first iteration counts.
 */
class SuiteSettingsTest {

    /**
     * Every store kind this JVM can open runs in one of the store suites, so splitting the old store suite
     * lost no row.
     */
    @Test
    void theStoreSuitesTogetherRunEveryStoreKind() {
        java.util.Set<String> run = new java.util.TreeSet<>();
        for (Suite suite : List.of(new StoreSuite(), new ThreadsSuite(), new SettingsSuite(), new SeedSuite())) {
            run.addAll(stores(suite, Suite.Profile.QUICK));
            run.addAll(stores(suite, Suite.Profile.FULL));
        }
        assertThat(run).containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(
                io.caskbench.bench.store.adapter.StoreKind.values())
                .filter(io.caskbench.bench.store.adapter.StoreKind::available).map(Enum::name).toList());
    }

    /** The default run: single-thread get and put of BitCask, every peer at its main setting, the references. */
    @Test
    void theDefaultSuiteIsSingleThreadGetAndPutOfEveryMainStore() {
        List<Options> runs = new StoreSuite().runs(Suite.Profile.QUICK).stream().map(r -> r.build()).toList();
        assertThat(runs).extracting(o -> o.getIncludes().get(0))
                .containsExactly("\\.PeersSingleThread\\.get$", "\\.PeersSingleThread\\.put$");
        for (Options run : runs) {
            assertThat(run.getParameter("store").get()).containsExactly("BITCASK_MAPPED", "BITCASK_FILE_CHANNEL",
                    "ROCKSDB", "LMDB", "CHRONICLE_MAP", "MAPDB", "H2_MVSTORE", "CONCURRENT_HASH_MAP", "IN_MEMORY_REFERENCE",
                    "HARNESS");
            assertThat(run.getForkCount().get()).isEqualTo(3);
            assertThat(run.getParameter("keyCount").get()).containsExactly("1000000");
        }
        assertThat(io.caskbench.bench.RunSettings.DEFAULT_SUITES).isEqualTo("store");
    }

    /** The threads suite runs every peer at every shape it runs the store at. */
    @Test
    void theThreadsSuiteRunsEveryMainStoreAtEveryShape() {
        for (Suite.Profile profile : List.of(Suite.Profile.QUICK, Suite.Profile.FULL)) {
            for (var r : new ThreadsSuite().runs(profile)) {
                Options run = r.build();
                if (run.getIncludes().get(0).contains("ThousandThreads")) {
                    assertThat(run.getParameter("store").get()).as(profile + " " + run.getIncludes())
                            .containsAll(List.of(StoreSuite.STORES));
                }
            }
        }
    }

    /**
     * A 1000-thread row of the threads suite holds the keys its label says: its key count is the operations of
     * one invocation, so a put round fills its fresh store to the label and a get or mixed invocation visits
     * every key once, never a tenth of them over and over.
     */
    @Test
    void everyThousandThreadRowIsLabelledByTheKeysItHolds() {
        for (Suite.Profile profile : Suite.Profile.values()) {
            for (var r : new ThreadsSuite().runs(profile)) {
                Options run = r.build();
                if (!run.getIncludes().get(0).contains("ThousandThreads")) {
                    continue;
                }
                String what = profile + " " + run.getIncludes();
                int ops = Integer.parseInt(run.getParameter("opsPerThread").get().iterator().next());
                assertThat(run.getParameter("keyCount").get()).as(what)
                        .containsExactly(String.valueOf(Gang.THREADS * ops));
                assertThat(run.getOperationsPerInvocation().get()).as(what).isEqualTo(Gang.THREADS * ops);
            }
        }
    }

    /**
     * A 1000-thread put row says that its rounds start from an empty store, so a report reads the keys it
     * held midway (its {@code keysInStore}) as half of what the round ends with, as for the single-thread rows.
     */
    @Test
    void thousandThreadRowsSayWhetherTheirStoreWasPrefilled() throws Exception {
        for (Class<?> benchmark : List.of(ThousandThreads.class, PeersSingleThread.class)) {
            assertThat(benchmark.getField("prefilled").getAnnotation(org.openjdk.jmh.annotations.Param.class).value())
                    .as(benchmark.getSimpleName()).containsExactly("false");
        }
    }

    /** JMH adds up a parameter given twice, and would run the same row twice: no suite may do that. */
    @Test
    void noRunGivesAParameterValueTwice() {
        for (Suite suite : io.caskbench.bench.BenchMain.suites().values()) {
            for (Suite.Profile profile : Suite.Profile.values()) {
                for (var r : suite.runs(profile)) {
                    Options run = r.build();
                    for (String name : List.of("store", "keyCount", "valueSize", "order", "backend", "opsPerThread")) {
                        var values = run.getParameter(name);
                        if (values.hasValue()) {
                            assertThat(values.get()).as("%s %s %s %s", suite.name(), profile, run.getIncludes(), name)
                                    .doesNotHaveDuplicates();
                        }
                    }
                }
            }
        }
    }

    /** The one-number suite is one row. */
    @Test
    void theOneSuiteIsOneRow() {
        for (Suite.Profile profile : Suite.Profile.values()) {
            List<Options> runs = new OneSuite().runs(profile).stream().map(r -> r.build()).toList();
            assertThat(runs).hasSize(1);
            for (String name : List.of("store", "keyCount", "valueSize", "order")) {
                assertThat(runs.get(0).getParameter(name).get()).as(profile + " " + name).hasSize(1);
            }
        }
    }

    private static java.util.Set<String> stores(Suite suite, Suite.Profile profile) {
        java.util.Set<String> run = new java.util.TreeSet<>();
        for (var r : suite.runs(profile)) {
            var stores = r.build().getParameter("store");
            if (stores.hasValue()) {
                run.addAll(stores.get());
            }
        }
        return run;
    }

    @Test
    void everyMeasuringRunForksThreeTimesAndWarmsUp() {
        // Every suite but "one", which exists to give a single number fast and says it has no spread.
        List<Suite> suites = List.of(new StoreSuite(), new ThreadsSuite(), new BackendsSuite(), new SettingsSuite(),
                new SeedSuite(), new TargetsSuite(), new LatencySuite(), new ScaleSuite(), new FilesSuite());
        for (Suite suite : suites) {
            for (Suite.Profile profile : List.of(Suite.Profile.QUICK, Suite.Profile.FULL)) {
                List<Options> runs = new ArrayList<>();
                suite.runs(profile).forEach(r -> runs.add(r.build()));
                for (Options run : runs) {
                    String what = suite.name() + " " + profile + " " + run.getIncludes();
                    assertThat(run.getForkCount().get()).as(what).isGreaterThanOrEqualTo(3);
                    boolean openLoop = run.getProfilers().stream()
                            .anyMatch(p -> p.getKlass().equals(OpenLoopProfiler.class.getName()));
                    if (openLoop) {
                        // One iteration per fork: the open-loop driver warms up inside it.
                        assertThat(Integer.parseInt(run.getParameter("warmupMillis").get().iterator().next()))
                                .as(what).isPositive();
                    } else {
                        assertThat(run.getWarmupIterations().get()).as(what).isGreaterThanOrEqualTo(1);
                    }
                }
            }
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
}
