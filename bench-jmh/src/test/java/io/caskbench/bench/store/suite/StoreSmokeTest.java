package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.store.fixture.Footprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark method of the store suites once, briefly (the smoke profile: one fork, one
 * iteration, smallest parameters, failing on the first error), exactly as {@code BenchMain} does, so
 * a broken benchmark or peer fails the build. Measures nothing; asserts only that each benchmark ran
 * and that the results and reports were written.
 */
class StoreSmokeTest {

    /** The suites the old store suite was split into, which together run every store benchmark but those below. */
    private static final List<String> SUITES = List.of("store", "threads", "backends", "settings", "seed", "sustained");

    @Test
    void everyStoreBenchmarkRunsAndTheResultsAreWritten(@TempDir Path results) throws Exception {
        SmokeRun.run(results, String.join(",", SUITES), null);

        StringBuilder json = new StringBuilder();
        StringBuilder comparisons = new StringBuilder();
        for (String suite : SUITES) {
            json.append(Files.readString(results.resolve(suite + ".json")));
            comparisons.append(Files.readString(results.resolve(suite + "-comparison.txt")));
        }
        for (String benchmark : storeBenchmarks()) {
            assertThat(json).as("result of %s", benchmark).contains("\"benchmark\" : \"" + benchmark + "\"");
        }
        assertThat(json).contains(Footprint.HEAP, Footprint.DISK, Footprint.INDEX);
        assertThat(comparisons.toString()).contains("best peer: ", "1000 threads", "CROSS-CHECK ONLY", "FC / MAPPED", "reference experiment");
        assertThat(results.resolve("machine.json")).exists();
        assertThat(results.resolve("index.html")).exists();
    }

    private static List<String> storeBenchmarks() {
        return BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of())
                .stream().map(b -> b.getUsername())
                .filter(name -> name.startsWith(StoreSmokeTest.class.getPackageName() + "."))
                .filter(name -> !TargetsSuite.ONLY.matcher(name).find() && !LatencySuite.ONLY.matcher(name).find())
                // Each with a smoke test of its own: the overwrite suite, and virtual threads (JDK 21+ only).
                .filter(name -> !name.contains(".SustainedOverwrite.") && !name.contains(".VirtualThreads"))
                .distinct().sorted().collect(Collectors.toList());
    }
}
