package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.Suite;
import io.caskbench.bench.files.FilesSuite;
import io.caskbench.bench.openloop.OpenLoopProfiler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;

/**
 * Every run of the measuring profiles has what a published row needs: at least three forks, so the
 * comparison can print a spread, and a warm-up iteration, so no cold first iteration counts.
 */
class SuiteSettingsTest {

    /** Every store this JVM can open: BitCask on MEMORY_SEGMENT too from JDK 22 on. */
    @Test
    void theQuickStoreSuiteRunsEveryStoreKind() {
        java.util.Set<String> run = new java.util.TreeSet<>();
        for (var r : new StoreSuite().runs(Suite.Profile.QUICK)) {
            var stores = r.build().getParameter("store");
            if (stores.hasValue()) {
                run.addAll(stores.get());
            }
        }
        assertThat(run).containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(
                io.caskbench.bench.store.adapter.StoreKind.values())
                .filter(io.caskbench.bench.store.adapter.StoreKind::available).map(Enum::name).toList());
    }

    @Test
    void everyMeasuringRunForksThreeTimesAndWarmsUp() {
        List<Suite> suites = List.of(new StoreSuite(), new TargetsSuite(), new LatencySuite(), new ScaleSuite(),
                new FilesSuite());
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
}
