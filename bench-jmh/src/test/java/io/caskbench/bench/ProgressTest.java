package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.caskbench.bench.store.suite.StoreSuite;
import java.util.List;
import java.util.Map;
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
    void aSustainedCallLastsItsSecondsParameter() {
        Options options = new OptionsBuilder().include("\\.SustainedOverwrite\\.overwrite$").forks(1)
                .warmupIterations(0).measurementIterations(1).param("store", "BITCASK_DEFAULT")
                .param("valueSize", "100").param("skew", "UNIFORM").param("rate", "0").param("seconds", "5", "15")
                .build();
        // The largest value stands for every combination: an estimate, not a schedule.
        assertThat(RunEstimate.of(options, find(options)).nominalSeconds())
                .isCloseTo(2 * (RunEstimate.FORK_SECONDS + 15), offset(1e-9));
    }

    @Test
    void everyRunOfTheQuickStoreSuiteHasAnEstimate() {
        var suite = new StoreSuite().runs(Suite.Profile.QUICK);
        List<RunEstimate> runs = suite.stream().map(b -> {
            Options o = b.build();
            return RunEstimate.of(o, find(o));
        }).toList();
        assertThat(runs).hasSameSizeAs(suite).isNotEmpty().allSatisfy(r -> assertThat(r.trials()).isPositive());
        assertThat(runs).extracting(RunEstimate::label).containsExactly("PeersSingleThread.get", "PeersSingleThread.put");
    }

    @Test
    void aRunOverManyClassesNamesAFew() {
        Options options = new OptionsBuilder().include("^io\\.caskbench\\.bench\\.files\\.").build();
        assertThat(RunEstimate.of(options, find(options)).label()).matches("[^,]+, [^,]+, [^,]+ and \\d+ more");
    }

    @Test
    void oneEstimateForTheWholeRunMovesWithEveryForkAndIteration() {
        Options none = new OptionsBuilder().build();
        List<Trial> trials = List.of(new Trial("store", 0, "A", "a", Map.of(), none, 60),
                new Trial("store", 0, "B", "b", Map.of(), none, 120), new Trial("files", 0, "C", "c", Map.of(), none, 60));
        long[] now = {0};
        Progress p = new Progress(trials, () -> now[0]);
        p.start();
        assertThat(p.line()).isEqualTo("[caskbench] 3 rows in 2 runs \u2014 about 4 min in the whole run");

        p.trialStarted(0);
        p.forkStarted(1, 1);
        now[0] += 4_000_000_000L;
        assertThat(p.nominalDone()).isEqualTo(RunEstimate.FORK_SECONDS);
        assertThat(p.scale()).as("4 s for the 2 nominal seconds of a fork start").isEqualTo(2.0);
        assertThat(p.secondsLeft()).isCloseTo((240 - 2) * 2.0, offset(1e-9));
        assertThat(p.line()).isEqualTo("[caskbench] 0 of 3 rows done; run 1 of 2 (store: A), fork 1 of 1 \u2014 about 8 min"
                + " left in the whole run");

        // iterations inside the row move the estimate before the row ends
        p.iterationDone(10);
        p.iterationDone(10);
        now[0] += 20_000_000_000L;
        assertThat(p.nominalDone()).isEqualTo(22);
        assertThat(p.scale()).isCloseTo(24.0 / 22, offset(1e-9));

        // more than the estimate foresaw never counts past the row
        p.iterationDone(100);
        assertThat(p.nominalDone()).isEqualTo(60);

        p.trialStarted(2);
        now[0] = 360_000_000_000L;
        assertThat(p.nominalDone()).as("rows before the current one count whole").isEqualTo(180);
        assertThat(p.secondsLeft()).isCloseTo(60 * 2.0, offset(1e-9));
        assertThat(p.line()).startsWith("[caskbench] 2 of 3 rows done; run 2 of 2 (files: C) \u2014 about 2 min");
    }

    /**
     * The line's end of the run moves later with the estimate but earlier only by as much as it moved
     * later before: 4 min, then 8 min, then a fast stretch cannot bring it below the first 4 min.
     */
    @Test
    void theShownEndMovesEarlierOnlyByWhatItMovedLaterBefore() {
        Options none = new OptionsBuilder().build();
        List<Trial> trials = List.of(new Trial("store", 0, "A", "a", Map.of(), none, 60),
                new Trial("store", 0, "B", "b", Map.of(), none, 180));
        long[] now = {0};
        Progress p = new Progress(trials, () -> now[0]);
        p.start();
        assertThat(p.shownSecondsLeft()).as("nominal: 240 s").isCloseTo(240, offset(1e-6));

        p.trialStarted(0);
        p.forkStarted(1, 1);
        now[0] = 4_000_000_000L; // 4 s for 2 nominal: the estimate doubles
        assertThat(p.secondsLeft()).isCloseTo(476, offset(1e-6));
        assertThat(p.shownSecondsLeft()).as("raised to the estimate's end, 480 s").isCloseTo(476, offset(1e-6));

        p.trialStarted(1); // the first row done fast: 60 nominal seconds in 5 s
        now[0] = 5_000_000_000L;
        assertThat(p.secondsLeft()).as("the raw estimate falls to 15 s").isCloseTo(15, offset(1e-6));
        assertThat(p.shownSecondsLeft()).as("never below the first figure's end, 240 s").isCloseTo(235, offset(1e-6));
    }

    @Test
    void aRunSplitsIntoOneTrialPerBenchmarkAndParameterCombination() {
        Options options = new OptionsBuilder().include("\\.WriteFloor\\.").param("valueSize", "100", "4080")
                .forks(2).warmupIterations(1).warmupTime(TimeValue.seconds(3))
                .measurementIterations(4).measurementTime(TimeValue.milliseconds(500)).build();
        SortedSet<BenchmarkListEntry> benchmarks = find(options);
        List<Trial> trials = Trial.split("targets", 3, options, benchmarks);
        assertThat(trials).hasSize(benchmarks.size() * 2).allSatisfy(t -> {
            assertThat(t.suite()).isEqualTo("targets");
            assertThat(t.run()).isEqualTo(3);
            assertThat(find(t.options())).as("each trial matches exactly one benchmark").hasSize(1);
            assertThat(t.options().getParameter("valueSize").get()).hasSize(1);
            assertThat(t.options().getForkCount().get()).isEqualTo(2);
        });
        assertThat(trials.stream().mapToDouble(Trial::nominalSeconds).sum())
                .isCloseTo(RunEstimate.of(options, benchmarks).nominalSeconds(), offset(1e-9));
        assertThat(trials).extracting(Trial::label).contains(trials.get(0).label().split(" ")[0] + " valueSize=100",
                trials.get(0).label().split(" ")[0] + " valueSize=4080");
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
