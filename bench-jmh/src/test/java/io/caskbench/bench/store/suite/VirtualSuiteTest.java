package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.Suite;
import io.caskbench.bench.store.threads.ThousandThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.Options;

/**
 * The virtual suite's runs: every row at the same operations per invocation as its platform-thread twin,
 * BitCask alone in the quick profile, the peers that run on virtual threads in the full one; on JDK 21+
 * its smoke run writes every row with its counters, and on an older JDK it is skipped with a line.
 */
class VirtualSuiteTest {

    @Test
    void everyRowDoesTheSameOperationsPerInvocationAsThePlatformRows() {
        List<Options> quick = new VirtualSuite().runs(Suite.Profile.QUICK).stream().map(r -> r.build()).toList();
        assertThat(quick).extracting(o -> o.getIncludes().get(0)).containsExactly("\\.VirtualThreads\\.get$",
                "\\.ThousandThreads\\.get$", "\\.VirtualThreads\\.put$", "\\.ThousandThreads\\.put$",
                "\\.VirtualThreadsAlways\\.put$", "\\.GroupCommit\\.gang$");
        for (Options run : quick) {
            assertThat(run.getOperationsPerInvocation().get()).as(run.getIncludes().toString()).isEqualTo(ThousandThreads.OPS);
            assertThat(run.getForkCount().get()).isEqualTo(StoreSuite.FORKS);
            assertThat(run.getMeasurementIterations().get()).isEqualTo(VirtualSuite.QUICK_ITERATIONS);
            if (run.getParameter("store").hasValue()) {
                assertThat(run.getParameter("store").get()).containsExactly("BITCASK_MAPPED", "BITCASK_FILE_CHANNEL");
                assertThat(run.getParameter("keyCount").get()).containsExactly(String.valueOf(ThousandThreads.OPS));
            } else {
                assertThat(run.getParameter("backend").get()).containsExactly("FILE_CHANNEL");
            }
        }
        for (int platform : new int[] {1, 3, 5}) {
            assertThat(quick.get(platform).getParameter("opsPerThread").get()).containsExactly("100");
        }
        assertThat(quick.get(5).getParameter("sync").get()).containsExactly("ALWAYS");
    }

    @Test
    void theFullProfileAddsThePeersWhereTheyRunOnVirtualThreads() {
        List<Options> full = new VirtualSuite().runs(Suite.Profile.FULL).stream().map(r -> r.build()).toList();
        for (Options gets : full.subList(0, 2)) {
            assertThat(gets.getParameter("store").get()).contains("BITCASK_MAPPED", "ROCKSDB", "CHRONICLE_MAP", "MAPDB",
                    "H2_MVSTORE", "CONCURRENT_HASH_MAP", "HARNESS").doesNotContain("LMDB");
            assertThat(gets.getForkCount().get()).isEqualTo(StoreSuite.FULL_FORKS);
        }
        for (Options puts : full.subList(2, 4)) {
            assertThat(puts.getParameter("store").get()).contains("BITCASK_FILE_CHANNEL", "ROCKSDB", "LMDB", "HARNESS");
        }
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void anOlderJdkSkipsTheSuiteWithALine(@TempDir Path results) throws Exception {
        assertThat(new VirtualSuite().unavailable()).hasValueSatisfying(why -> assertThat(why).contains("JDK 21"));
        String output = SmokeRun.run(results, "virtual", null);
        assertThat(output).contains("suite 'virtual' skipped: virtual threads need JDK 21 or newer");
        assertThat(results.resolve("virtual.json")).doesNotExist();
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void theSmokeRunWritesEveryRowWithItsCounters(@TempDir Path results) throws Exception {
        assertThat(new VirtualSuite().unavailable()).isEmpty();
        SmokeRun.run(results, "virtual", null);

        String json = Files.readString(results.resolve("virtual.json"));
        String comparison = Files.readString(results.resolve("virtual-comparison.txt"));
        assertThat(json).contains("\"pinned\"", "\"carriersAdded\"");
        assertThat(comparison).contains("== get", "== put", "== forced put (SyncPolicy.ALWAYS)", "1,000 platform",
                "100,000 virtual", "x platform");
    }
}
