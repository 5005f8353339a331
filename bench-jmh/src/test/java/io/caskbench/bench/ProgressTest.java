package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.caskbench.bench.store.StoreSuite;
import java.time.Duration;
import java.util.List;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The estimate of a JMH run from its options, and the progress line that scales it by measured time. */
class ProgressTest {

    @Test
    void nominalTimeIsTrialsTimesForksTimesIterations() {
        // WriteFloor declares valueSize and its own annotations; the options win over both
        Options options = new OptionsBuilder().include("\\.WriteFloor\\.").param("valueSize", "100", "4080")
                .forks(2).warmupIterations(1).warmupTime(TimeValue.seconds(3))
                .measurementIterations(4).measurementTime(TimeValue.milliseconds(500)).build();
        SortedSet<BenchmarkListEntry> benchmarks = find(options);
        RunEstimate e = RunEstimate.of(options, benchmarks);
        int methods = benchmarks.size();
        assertThat(methods).isPositive();
        assertThat(e.trials()).isEqualTo(methods * 2);
        assertThat(e.nominalSeconds()).isCloseTo(methods * 2 * 2 * (RunEstimate.FORK_SECONDS + 1 * 3 + 4 * 0.5), offset(1e-9));
        assertThat(e.label()).startsWith("WriteFloor");
    }

    @Test
    void annotationsAndJmhDefaultsFillWhatTheOptionsLeaveOpen() {
        // MetadataLookup: @Fork(1), @Warmup(iterations = 3, time = 1), @Measurement(iterations = 5, time = 1)
        Options options = new OptionsBuilder().include("\\.MetadataLookup\\.existsAbsent$").build();
        RunEstimate e = RunEstimate.of(options, find(options));
        assertThat(e.trials()).isEqualTo(1);
        assertThat(e.label()).isEqualTo("MetadataLookup.existsAbsent");
        assertThat(e.nominalSeconds()).isCloseTo(RunEstimate.FORK_SECONDS + 3 + 5, offset(1e-9));

        // two modes from the options count twice; single-shot iterations have a nominal length
        Options modes = new OptionsBuilder().include("\\.MetadataLookup\\.existsAbsent$")
                .mode(Mode.AverageTime).mode(Mode.Throughput).build();
        assertThat(RunEstimate.of(modes, find(modes)).trials()).isEqualTo(2);
        Options shot = new OptionsBuilder().include("\\.MetadataLookup\\.existsAbsent$").mode(Mode.SingleShotTime)
                .warmupIterations(0).measurementIterations(7).build();
        assertThat(RunEstimate.of(shot, find(shot)).nominalSeconds())
                .isCloseTo(RunEstimate.FORK_SECONDS + 7 * RunEstimate.SINGLE_SHOT_SECONDS, offset(1e-9));
    }

    @Test
    void everyRunOfTheQuickStoreSuiteHasAnEstimate() {
        var suite = new StoreSuite().runs(Suite.Profile.QUICK);
        List<RunEstimate> runs = suite.stream().map(b -> {
            Options o = b.build();
            return RunEstimate.of(o, find(o));
        }).toList();
        // the suite's length changes as runs are added; what must hold is that none of them matches nothing
        assertThat(runs).hasSameSizeAs(suite).isNotEmpty().allSatisfy(r -> assertThat(r.trials()).isPositive());
        assertThat(runs).extracting(RunEstimate::label).contains("ThousandThreads.get", "ThousandThreads.put",
                "PeersSingleThread.get", "PeersSingleThread.put", "BitCaskSingleThread", "SeedWorkload");
    }

    @Test
    void aRunOverManyClassesNamesAFew() {
        Options options = new OptionsBuilder().include("^io\\.caskbench\\.bench\\.files\\.").build();
        assertThat(RunEstimate.of(options, find(options)).label()).matches("[^,]+, [^,]+, [^,]+ and \\d+ more");
    }

    @Test
    void laterRunsAreScaledByHowLongTheEarlierOnesReallyTook() {
        RunEstimate a = new RunEstimate("A", 1, 60);
        RunEstimate b = new RunEstimate("B", 2, 120);
        RunEstimate c = new RunEstimate("C", 1, 60);
        List<RunEstimate> suite = List.of(a, b, c);
        Progress p = new Progress();
        assertThat(p.line("store", suite, 0)).isEqualTo("[run 1/3] store: A \u2014 about 60 s, about 4 min left in the suite");
        p.finished(a, Duration.ofSeconds(120));
        assertThat(p.scale()).isEqualTo(2.0);
        assertThat(p.line("store", suite, 1)).isEqualTo("[run 2/3] store: B \u2014 about 4 min, about 6 min left in the suite");
        p.finished(b, Duration.ofSeconds(120));
        assertThat(p.scale()).as("(120 + 120) / (60 + 120)").isCloseTo(4.0 / 3, offset(1e-9));
        assertThat(p.line("store", suite, 2)).isEqualTo("[run 3/3] store: C \u2014 about 80 s, about 80 s left in the suite");
        assertThat(p.line("store", List.of(new RunEstimate("", 0, 0)), 0))
                .isEqualTo("[run 1/1] store: no benchmark matches the include filter; skipped");
    }

    @Test
    void durationsAreRoundedAsAnEstimateDeserves() {
        assertThat(Progress.about(0.4)).isEqualTo("about 5 s");
        assertThat(Progress.about(42)).isEqualTo("about 45 s");
        assertThat(Progress.about(100)).isEqualTo("about 2 min");
        assertThat(Progress.about(89 * 60)).isEqualTo("about 89 min");
        assertThat(Progress.about(2 * 3600 + 9 * 60)).isEqualTo("about 2 h 10 min");
        assertThat(Progress.about(3 * 3600)).isEqualTo("about 3 h");
    }

    private static SortedSet<BenchmarkListEntry> find(Options options) {
        return BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT),
                options.getIncludes(), options.getExcludes());
    }
}
