package io.caskbench.bench.store;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.RunCommand;
import io.caskbench.bench.Suite;
import io.caskbench.report.LatencyTables;
import io.caskbench.report.ResultFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code latency} suite: single operations timed by JMH's sample mode, where the store suites time
 * batches. Two questions, each a target with its ratio and spread in the comparison:
 *
 * <ul>
 *   <li>what a merge running back to back does to get p99 and put throughput: {@link MergeLatency};</li>
 *   <li>how long a writer waits among 64 threads, 95% of them reading: {@link MixedTail}, with the same
 *       threads fetching keys and calling no store beside it.</li>
 * </ul>
 */
public final class LatencySuite implements Suite {

    /** Every benchmark of this suite (none of which the store suite runs), as a pattern on their names. */
    public static final Pattern ONLY = Pattern.compile("\\.(MergeLatency|MixedTail)\\.");

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public LatencySuite() {
    }

    @Override
    public String name() {
        return "latency";
    }

    @Override
    public String description() {
        return "BitCask's latency percentiles: get and put beside a back-to-back merge, and the put tail among 64 threads";
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return settings(profile, new OptionsBuilder().include(ONLY.pattern()).param("backend", StoreSuite.BACKENDS));
    }

    /**
     * Two runs: the store's groups on every backend, then the harness alone once (it calls no store, so
     * its backend only decides which store its trial fills).
     */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        return List.of(
                settings(profile, new OptionsBuilder().include("\\.MergeLatency\\.").include("\\.MixedTail\\.mix$")
                        .param("backend", StoreSuite.BACKENDS)),
                settings(profile, new OptionsBuilder().include("\\.MixedTail\\.harness$").param("backend", "MAPPED")));
    }

    private static ChainedOptionsBuilder settings(Profile profile, ChainedOptionsBuilder options) {
        options.shouldFailOnError(true);
        return switch (profile) {
            case SMOKE -> options.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(20)).param("keyCount", "10000");
            // Percentiles need many samples and a settled JIT: longer iterations than the store suites'.
            case QUICK -> options.forks(StoreSuite.FORKS).warmupIterations(2).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(3));
            case FULL -> options.forks(StoreSuite.FORKS).warmupIterations(3).warmupTime(TimeValue.seconds(3))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(5));
        };
    }

    @Override
    public void beforeRuns(Path results) {
        RunCommand.record(results, name());
    }

    /** bench-report's latency comparison of the JSON this run just wrote. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(LatencyTables.render(ResultFile.read(results.resolve(name() + ".json")).results()).text());
    }
}
