package io.caskbench.bench.replicated;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.openloop.OpenLoopProfiler;
import io.caskbench.report.table.ReplicatedTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code replicated} suite: put and get of one Raft group of three replicas and of three groups on
 * three replicas, all on loopback, beside the single-node store, closed-loop at 1, 8 and 64 clients and
 * open-loop at a rate below saturation. One run per client count for the throughput rows (JMH's thread
 * count is per run) and one open-loop run.
 *
 * <p>The quick profile takes about 4 minutes: 18 throughput forks of about 7 s (a JVM, three replicas
 * started and elected, 2,000 keys written, 1 s of warm-up and 2 s measured) and 9 open-loop forks of about
 * 14 s (2 s of warm-up, 8 s measured), one fork per row, so every figure is indicative.
 */
public final class ReplicatedSuite implements Suite {

    /** Client counts of the throughput rows. */
    static final int[] CLIENTS = {1, 8, 64};

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public ReplicatedSuite() {
    }

    @Override
    public String name() {
        return "replicated";
    }

    @Override
    public String description() {
        return "put and get of a Raft-replicated store (three replicas on loopback, one group and three) beside the "
                + "single-node store, at 1, 8 and 64 clients: throughput and open-loop percentiles";
    }

    /** A throughput run per client count, then the open-loop run; the smoke profile runs 8 clients only. */
    @Override
    public List<ChainedOptionsBuilder> runs(Profile profile) {
        List<ChainedOptionsBuilder> runs = new ArrayList<>();
        for (int clients : profile == Profile.SMOKE ? new int[] {8} : CLIENTS) {
            runs.add(throughput(profile, clients));
        }
        runs.add(openLoop(profile));
        return runs;
    }

    private static ChainedOptionsBuilder throughput(Profile profile, int clients) {
        ChainedOptionsBuilder o = new OptionsBuilder().include("\\.ReplicatedThroughput\\.").threads(clients)
                .shouldFailOnError(true);
        return switch (profile) {
            case SMOKE -> o.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(200)).param("keyCount", "200");
            case QUICK -> o.forks(1).warmupIterations(1).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(2).measurementTime(TimeValue.seconds(1));
            case FULL -> o.forks(3).warmupIterations(2).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(2));
        };
    }

    private static ChainedOptionsBuilder openLoop(Profile profile) {
        ChainedOptionsBuilder o = new OptionsBuilder().include("\\.ReplicatedOpenLoop\\.").shouldFailOnError(true)
                .addProfiler(OpenLoopProfiler.class).warmupIterations(0).measurementIterations(1);
        return switch (profile) {
            case SMOKE -> o.forks(1).param("keyCount", "200").param("clients", "8").param("warmupMillis", "200")
                    .param("measureMillis", "500");
            case QUICK -> o.forks(1);
            case FULL -> o.forks(3).param("warmupMillis", "5000").param("measureMillis", "20000");
        };
    }

    /** bench-report's replicated tables of the JSON this run just wrote. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(ReplicatedTables.render(readResults(results)).text());
    }
}
