package io.caskbench.bench.events;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.report.table.EventOverheadTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The {@code events} suite: what the store's JFR events cost, {@link EventOverhead}'s get and put with no
 * recording, under the JDK's default recording and with {@code bitcask.jfc} over it, each row in forks of
 * its own. The quick profile runs the MAPPED backend (the events are the same on every backend, and the
 * fastest operations show their cost most) in {@value #QUICK_FORKS} forks, enough for a published
 * verdict on each ratio, in about three minutes; the full profile adds FILE_CHANNEL and longer iterations.
 */
public final class EventsSuite implements Suite {

    /** Forks per row of the measuring profiles: as many as a published verdict needs. */
    static final int QUICK_FORKS = 5;

    /** Creates the suite; {@link java.util.ServiceLoader} calls this. */
    public EventsSuite() {
    }

    @Override
    public String name() {
        return "events";
    }

    @Override
    public String description() {
        return "what the store's JFR events cost: get and put with no recording, the JDK's default recording,"
                + " and bitcask.jfc";
    }

    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        ChainedOptionsBuilder options = new OptionsBuilder().include("\\.EventOverhead\\.(get|put)$")
                .shouldFailOnError(profile == Profile.SMOKE);
        return switch (profile) {
            case SMOKE -> options.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(10)).param("backend", "MAPPED").param("keyCount", "1024");
            case QUICK -> options.forks(QUICK_FORKS).warmupIterations(1).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(1)).param("backend", "MAPPED");
            case FULL -> options.forks(QUICK_FORKS).warmupIterations(3).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(2))
                    .param("backend", "MAPPED", "FILE_CHANNEL");
        };
    }

    /** bench-report's overhead table of the JSON this run just wrote. */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(EventOverheadTables.render(readResults(results)).text());
    }
}
