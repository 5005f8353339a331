package io.caskbench.bench.store.suite;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.openloop.OpenLoopProfiler;
import io.caskbench.bench.store.latency.MergeLatency;
import io.caskbench.bench.store.latency.MergeTailOpenLoop;
import io.caskbench.bench.store.latency.MixedTail;
import io.caskbench.bench.store.latency.MixedTailOpenLoop;
import io.caskbench.report.table.LatencyTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code latency} suite: the store's latency percentiles, measured open-loop, and what a merge costs
 * the foreground. Its rows:
 *
 * <ul>
 *   <li>{@link MixedTailOpenLoop}: get and put tails among 64 threads, 95% gets, at three fixed arrival
 *       rates, on every backend (each fork runs a harness pass first, at the same rate and threads);</li>
 *   <li>{@link MergeTailOpenLoop}: the get tail with a merge running back to back and without, at two fixed
 *       arrival rates, on every backend;</li>
 *   <li>{@link MergeLatency}: put throughput with a merge against without (its goal), and, closed loop and
 *       judging no goal, the get p99 of JMH's sample mode beside it.</li>
 * </ul>
 *
 * <p>The open-loop runs are one JMH iteration per fork ({@code SingleShotTime}: the driver warms up and
 * measures inside it), with {@link OpenLoopProfiler} reporting the percentiles. The closed-loop
 * {@link MixedTail} is left out: its tail is coordinated with the store it measures; it still runs by name.
 */
public final class LatencySuite implements Suite {

    /** Every benchmark of this suite (none of which the store suite runs), as a pattern on their names. */
    public static final Pattern ONLY = Pattern.compile(
            "\\.(MergeLatency|MixedTail|MixedTailOpenLoop|MergeTailOpenLoop)\\.");

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public LatencySuite() {
    }

    @Override
    public String name() {
        return "latency";
    }

    @Override
    public String description() {
        return "BitCask's latency percentiles, open-loop at fixed arrival rates: 64 threads mixing gets and puts, "
                + "and gets beside a back-to-back merge";
    }

    /**
     * Three runs: the open-loop tail on every backend, the open-loop merge rows on every backend, then the
     * closed-loop merge rows for put throughput.
     */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        return List.of(
                openLoop(profile, new OptionsBuilder().include("\\.MixedTailOpenLoop\\.mix$")
                        .param("backend", StoreSuite.BACKENDS)),
                openLoop(profile, new OptionsBuilder().include("\\.MergeTailOpenLoop\\.")
                        .param("backend", StoreSuite.BACKENDS)),
                closedLoop(profile, new OptionsBuilder().include("\\.MergeLatency\\.")
                        .param("backend", StoreSuite.BACKENDS)));
    }

    /**
     * An open-loop run: one iteration per fork, the driver's own warm-up and measured period, the profiler
     * that reports them. Smoke runs drive one rate for a fraction of a second per row.
     *
     * <p>The measured period decides which tails the report may judge: a percentile q needs 10 / (1 - q)
     * samples of its kind in every fork. The quick profile's 5 s at the lowest rate, 5,000 ops/s with 5%
     * puts, gives 1,250 puts per fork: enough for the put p99 (1,000), not for its p99.9 (10,000, which
     * would take 40 s per row at that rate), so the quick profile judges the put p99.9 only at 50,000
     * ops/s. The full profile's 20 s gives 5,000 puts at the lowest rate. Both run three forks, so every
     * verdict is marked indicative (five forks make a firm one); longer periods and more forks would make
     * the quick latency suite several times longer.
     */
    private static ChainedOptionsBuilder openLoop(Profile profile, ChainedOptionsBuilder options) {
        options.shouldFailOnError(true).addProfiler(OpenLoopProfiler.class).warmupIterations(0).measurementIterations(1);
        return switch (profile) {
            case SMOKE -> options.forks(1).param("keyCount", "10000").param("warmupMillis", "200")
                    .param("measureMillis", "500").param("rate", "5000");
            case QUICK -> options.forks(StoreSuite.FORKS).param("warmupMillis", "3000").param("measureMillis", "5000");
            case FULL -> options.forks(StoreSuite.FORKS).param("warmupMillis", "5000").param("measureMillis", "20000");
        };
    }

    private static ChainedOptionsBuilder closedLoop(Profile profile, ChainedOptionsBuilder options) {
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

    /** bench-report's latency comparison of the JSON this run just wrote. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(LatencyTables.render(readResults(results)).text());
    }
}
