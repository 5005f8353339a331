package io.caskbench.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * The JVM arguments a benchmark fork inherits from {@link BenchMain}, corrected for a suite run.
 *
 * <p>JMH starts each fork with the runner's own JVM arguments unless told otherwise, so every
 * {@code -Dcaskbench.*} given to the runner reaches the benchmarks. Two of them need correcting: the
 * results folder, which the runner has narrowed to this run's own folder (the store benchmarks write
 * side files there), and properties that Maven forwards empty because the user did not set them, which
 * would otherwise hide the suite's own value (an empty {@code caskbench.gangLimitSeconds} after the
 * suite's {@code -Dcaskbench.gangLimitSeconds=15}).
 */
final class ForkArgs {

    private static final String RESULTS = "-Dcaskbench.results=";

    private ForkArgs() {
    }

    /**
     * {@code runnerArgs} without empty {@code -Dcaskbench.*=} entries and without any results folder,
     * followed by {@code -Dcaskbench.results=<run>}.
     */
    static List<String> inherited(List<String> runnerArgs, Path run) {
        List<String> out = new ArrayList<>();
        for (String arg : runnerArgs) {
            boolean emptyCaskbench = arg.startsWith("-Dcaskbench.") && arg.indexOf('=') == arg.length() - 1;
            if (!emptyCaskbench && !arg.startsWith(RESULTS)) {
                out.add(arg);
            }
        }
        out.add(RESULTS + run.toAbsolutePath());
        return out;
    }

    /**
     * Whether a run may replace its forks' inherited JVM arguments: not when one of its benchmarks sets
     * its own with {@code @Fork(jvmArgs = ...)}, which options would override.
     */
    static boolean replaceable(Collection<BenchmarkListEntry> benchmarks) {
        return benchmarks.stream().noneMatch(b -> b.getJvmArgs().hasValue());
    }
}
