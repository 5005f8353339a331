package io.caskbench.bench.store.threads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the virtual-thread benchmarks for a moment each on JDK 21 and newer, so that a broken fixture fails
 * the build there, and checks that every row carries its pinning and carrier counts. Measures nothing.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadsSmokeTest {

    @Test
    void getsPutsAndForcedPutsRunOnVirtualThreadsWithTheirCounts() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(VirtualThreads.class.getName() + "\\.|" + VirtualThreadsAlways.class.getName() + "\\.")
                .param("store", "BITCASK_FILE_CHANNEL")
                .param("backend", "FILE_CHANNEL")
                // A put round puts at most every key once (PutRounds): as many keys as operations.
                .param("keyCount", "100000")
                .operationsPerInvocation(100_000)
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(200))
                .timeUnit(TimeUnit.SECONDS)
                .shouldFailOnError(true)
                .build()).run();
        assertThat(results).hasSize(2 * 2 + 2); // get and put at two thread counts, and the forced puts
        assertThat(results).allSatisfy(r -> {
            assertThat(r.getPrimaryResult().getScore()).isPositive();
            assertThat(r.getSecondaryResults()).containsKeys("pinned", "carriersAdded");
            assertThat(r.getSecondaryResults().get("carriersAdded").getScore()).as("the scheduler was read").isNotNegative();
        });
    }
}
