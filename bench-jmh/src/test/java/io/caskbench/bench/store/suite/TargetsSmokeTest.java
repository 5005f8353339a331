package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Runs, in the smoke profile, the benchmarks only the {@code targets} suite runs (the store smoke test runs
 * the rest of it), so that a broken floor, group-commit or open benchmark fails the build; and checks that
 * the comparison names every target. Measures nothing.
 */
class TargetsSmokeTest {

    @Test
    void targetOnlyBenchmarksRunAndTheTargetTableIsWritten(@TempDir Path results) throws Exception {
        SmokeRun.run(results, "targets", TargetsSuite.ONLY.pattern());

        String json = Files.readString(results.resolve("targets.json"));
        List<String> only = BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of())
                .stream().map(b -> b.getUsername()).filter(name -> TargetsSuite.ONLY.matcher(name).find())
                .distinct().collect(Collectors.toList());
        assertThat(only).hasSize(5);
        for (String benchmark : only) {
            assertThat(json).as("result of %s", benchmark).contains("\"benchmark\" : \"" + benchmark + "\"");
        }
        String comparison = Files.readString(results.resolve("targets-comparison.txt"));
        assertThat(comparison).contains("get MAPPED / LMDB", "1-thread put FILE_CHANNEL / one pwrite per record (direct)",
                "full scan time / open with hints");
        // The target table always lists every row; the group-commit rows are the ones smoke parameters fill in.
        for (String row : List.of("ALWAYS 1000-thread put / 1-thread put, FILE_CHANNEL",
                "ALWAYS 1000-thread put / 1-thread put, MAPPED")) {
            assertThat(comparison.lines().filter(l -> l.startsWith(row)).findFirst())
                    .as(row).hasValueSatisfying(l -> assertThat(l).doesNotContain("not measured").containsPattern("\\d\\.\\d\\d"));
        }
    }
}
