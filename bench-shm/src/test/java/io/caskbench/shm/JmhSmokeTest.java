package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;

/**
 * Every JMH benchmark of the suite runs once, briefly (the smoke profile: one fork, one 20 ms
 * iteration, 64 KiB, every backing) and writes its JSON. Proves setup, teardown (unmapping) and each
 * method work; measures nothing.
 */
class JmhSmokeTest {

    @Test
    void everyBenchmarkRunsOnEveryBacking(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("shm.json");
        Collection<RunResult> results = new Runner(ShmSuite.options(Profile.SMOKE, "", "", json).build()).run();

        int variants = Segments.AVAILABLE ? 4 : 3; // segmentSet and segmentFill need JDK 22+
        int backings = 4;
        int expected = variants * backings * 2 + 2 + 2; // writes and clears, byte[] baseline, PRNGs
        assertThat(results).hasSize(expected);
        assertThat(results).allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
        Set<String> names = results.stream().map(r -> r.getParams().getBenchmark()).collect(Collectors.toSet());
        assertThat(names).contains(RandomWriteBench.class.getName() + ".seedGetPut",
                ClearBench.class.getName() + ".putLongLoop", HeapArrayBench.class.getName() + ".arrayFill",
                PrngBench.class.getName() + ".xorshift");
        assertThat(Files.readString(json)).startsWith("[").contains("\"primaryMetric\"");
        try (var leftovers = Files.list(Backing.shmDir())) {
            assertThat(leftovers.map(Path::toString)).noneMatch(p -> p.contains("caskbench-region-"));
        }
    }
}
