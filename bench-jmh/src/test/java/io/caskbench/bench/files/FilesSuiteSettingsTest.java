package io.caskbench.bench.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.Suite;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The measuring profiles keep the batched file operations' own iteration counts, and run every benchmark once. */
class FilesSuiteSettingsTest {

    @Test
    void theBatchedOperationsKeepTheirOwnIterationCounts() {
        for (Suite.Profile profile : List.of(Suite.Profile.QUICK, Suite.Profile.FULL)) {
            List<Options> runs = new FilesSuite().runs(profile).stream().map(r -> r.build()).toList();
            assertThat(runs).hasSize(2);
            Options batched = runs.get(1);
            assertThat(names(batched)).as("%s", profile).isNotEmpty()
                    .allMatch(n -> n.matches(".*\\.ops\\.File(Copy|Creation|Delete|Link|Move|Write)\\..*"));
            assertThat(batched.getWarmupIterations().get()).isGreaterThanOrEqualTo(3);
            assertThat(batched.getMeasurementIterations().get()).isGreaterThanOrEqualTo(10);
            assertThat(batched.getForkCount().get()).isGreaterThanOrEqualTo(3);

            Set<String> rest = names(runs.get(0));
            assertThat(rest).as("no benchmark runs twice").doesNotContainAnyElementsOf(names(batched));
            Set<String> all = new TreeSet<>(rest);
            all.addAll(names(batched));
            assertThat(all).as("every benchmark runs").isEqualTo(names(new OptionsBuilder().include(FilesSuite.INCLUDE).build()));
        }
    }

    private static Set<String> names(Options options) {
        Set<String> names = new TreeSet<>();
        for (BenchmarkListEntry b : BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), options.getIncludes(),
                options.getExcludes())) {
            names.add(b.getUsername());
        }
        return names;
    }
}
