package io.caskbench.bench;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.ResultFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * One named group of benchmarks that {@code BenchMain} can run and report as a unit.
 *
 * <p>Suites are found with {@link java.util.ServiceLoader}: each implementation is listed in
 * {@code META-INF/services/io.caskbench.bench.Suite}. A run of suite {@code name()} writes
 * {@code <results>/<name>.json} (JMH's JSON); bench-report renders its summary and page from it.
 */
public interface Suite {

    /** The profile a run is made with. */
    enum Profile {
        /** Small parameters, short iterations and three forks: the default store run takes about 45 minutes on 2 cores. */
        QUICK,
        /** The seeds' own sizes and proper iteration counts. */
        FULL,
        /** One fork, one very short iteration per benchmark: only proves that each benchmark runs. */
        SMOKE
    }

    /** Short lower-case name, used on the command line and as the results file name. */
    String name();

    /** One sentence on what the suite answers, printed before it runs. */
    String description();

    /**
     * JMH options for this suite under the given profile: includes, parameters, forks and
     * iterations. The caller adds the result file, its format and any pass-through arguments.
     *
     * <p>A suite implements this or {@link #runs}, each defined by the other: a suite of one run implements
     * this, and a suite of several implements {@link #runs}, whose first run this then is.
     */
    default ChainedOptionsBuilder options(Profile profile) {
        return runs(profile).get(0);
    }

    /**
     * The JMH runs that make up this suite under the given profile. A suite whose benchmarks need
     * different parameter grids (JMH applies a {@code -p} override to every benchmark that has the
     * parameter) splits into several runs; {@code BenchMain} runs them in order and writes all results to
     * one JSON file. By default the suite is the single run of {@link #options(Profile)}.
     */
    default List<ChainedOptionsBuilder> runs(Profile profile) {
        return List.of(options(profile));
    }

    /**
     * Why this JVM cannot run the suite (virtual threads on an older JDK, say), or empty when it can.
     * {@code BenchMain} skips such a suite with this line and goes on with the others. Empty by default.
     */
    default Optional<String> unavailable() {
        return Optional.empty();
    }

    /**
     * Called before the suite's runs start: records the command that reproduces them ({@link RunCommand}),
     * for the generated docs. A suite that also clears files an earlier run left overrides this and calls it.
     */
    default void beforeRuns(Path results) {
        RunCommand.record(results, name());
    }

    /**
     * A suite-specific plain-text comparison of a finished run, written to
     * {@code <results>/<name>-comparison.txt} below the machine header, beyond the generic
     * {@code <name>-summary.txt} that bench-report writes for every suite. None by default.
     *
     * @param rows the run's results
     * @param results the results folder, for side files the benchmarks wrote
     */
    default Optional<String> comparison(List<ResultRow> rows, Path results) {
        return Optional.empty();
    }

    /** The results of this suite's finished run: the JSON it wrote to {@code results}, as bench-report reads it. */
    default List<JmhResult> readResults(Path results) {
        return ResultFile.read(results.resolve(name() + ".json")).results();
    }
}
