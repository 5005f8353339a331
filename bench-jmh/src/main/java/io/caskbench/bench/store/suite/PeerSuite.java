package io.caskbench.bench.store.suite;

import io.caskbench.bench.ResultRow;
import io.caskbench.bench.Suite;
import io.caskbench.bench.store.fixture.StoppedRuns;
import io.caskbench.report.table.StoreTables;
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

    @Override
    public abstract List<ChainedOptionsBuilder> runs(Profile profile);

    @Override
    public void beforeRuns(Path results) {
        StoppedRuns.clear(results);
        Suite.super.beforeRuns(results);
    }

    /** bench-report's store comparison of the JSON this run just wrote (the rows are the same results). */
    @Override
    public Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.of(StoreTables.render(readResults(results), StoppedRuns.read(results)).text());
    }
}
