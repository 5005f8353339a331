package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
        // The forks map their regions in directories of this test's own, so a bench-shm run elsewhere on
        // the machine neither trips the leftover check below nor hides a leftover of ours.
        Path shm = Files.createTempDirectory(Backing.shmDir(), "caskbench-smoke-");
        Path disk = Files.createDirectories(dir.resolve("disk"));
        List<String> forkArgs = new ArrayList<>(Unmapper.quietFlags());
        forkArgs.add("-Dcaskbench.shm.shmDir=" + shm);
        forkArgs.add("-Dcaskbench.shm.diskDir=" + disk);
        Collection<RunResult> results;
        try {
            results = new Runner(ShmSuite.options(Profile.SMOKE, "", "", json)
                    .jvmArgsPrepend(forkArgs.toArray(new String[0])).build()).run();
            for (Path d : List.of(shm, disk)) {
                try (var leftovers = Files.list(d)) {
                    assertThat(leftovers.map(Path::toString)).as("region files left in %s", d).isEmpty();
                }
            }
        } finally {
            MoreFiles.deleteRecursively(shm, RecursiveDeleteOption.ALLOW_INSECURE);
        }

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
    }
}
