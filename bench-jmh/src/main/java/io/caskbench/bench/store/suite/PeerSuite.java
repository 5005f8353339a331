package io.caskbench.bench.store.suite;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.RunCommand;
import io.caskbench.bench.Suite;
import io.caskbench.bench.store.fixture.StoppedRuns;
import io.caskbench.report.ResultFile;
import io.caskbench.report.StoreTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * What every suite of store-against-peer rows shares: it clears the side files of stopped 1000-thread
 * runs before it starts, records the command that reproduces it, and ends with bench-report's store
 * comparison. Subclasses say only which runs they are made of.
 */
abstract class PeerSuite implements Suite {

    /**
     * Every run of the suite at once, with the profile's settings; {@link #runs} is what {@code BenchMain}
     * runs. A suite of several runs has parts that need different parameter grids.
     */
    @Override
    public ChainedOptionsBuilder options(Profile profile) {
        return runs(profile).get(0);
    }

    @Override
    public abstract List<ChainedOptionsBuilder> runs(Profile profile);

    @Override
    public void beforeRuns(Path results) {
        StoppedRuns.clear(results);
        RunCommand.record(results, name());
    }

    /** bench-report's store comparison of the JSON this run just wrote (the rows are the same results). */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(StoreTables.render(ResultFile.read(results.resolve(name() + ".json")).results(),
                StoppedRuns.read(results)).text());
    }
}
