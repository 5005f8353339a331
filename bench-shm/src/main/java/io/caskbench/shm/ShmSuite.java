package io.caskbench.shm;

import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * JMH options for the bench-shm suites under a {@link Profile}, shared by {@link ShmMain} and the smoke
 * test so both run exactly the same selection.
 */
public final class ShmSuite {

    /** Results file name of the JMH part, under the results directory. */
    public static final String NAME = "shm";

    /** Every benchmark class of the suite. */
    public static final List<Class<?>> BENCHMARKS =
            List.of(RandomWriteBench.class, ClearBench.class, HeapArrayBench.class, PrngBench.class);

    private ShmSuite() {
    }

    /**
     * Options for one run.
     *
     * @param include regex of benchmarks to run, empty for all of bench-shm
     * @param jmhArgs JMH command-line arguments; anything they set wins over the profile
     * @param resultFile where JMH writes its JSON
     */
    public static ChainedOptionsBuilder options(Profile profile, String include, String jmhArgs, Path resultFile) {
        CommandLineOptions cli = parse(jmhArgs);
        ChainedOptionsBuilder b = new OptionsBuilder().parent(cli)
                .result(resultFile.toString())
                .resultFormat(ResultFormatType.JSON)
                .shouldFailOnError(true);
        if (!include.isBlank()) {
            b.include(include);
        } else if (cli.getIncludes().isEmpty()) {
            BENCHMARKS.forEach(c -> b.include(c.getName().replace(".", "\\.") + "\\."));
        }
        if (!Segments.AVAILABLE) {
            // the MemorySegment variants only exist on JDK 22+; on 17 they are skipped, not failed
            b.exclude("\\.segment");
        }
        if (!cli.getForkCount().hasValue()) {
            b.forks(profile.forks());
        }
        if (!cli.getWarmupIterations().hasValue()) {
            b.warmupIterations(profile.warmups());
        }
        if (!cli.getWarmupTime().hasValue()) {
            b.warmupTime(TimeValue.milliseconds(profile.iterationMillis()));
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            b.measurementIterations(profile.iterations());
        }
        if (!cli.getMeasurementTime().hasValue()) {
            b.measurementTime(TimeValue.milliseconds(profile.iterationMillis()));
        }
        if (!cli.getParameter("region").hasValue()) {
            b.param("region", profile.regions().toArray(new String[0]));
        }
        if (!cli.getJvmArgsPrepend().hasValue() && !Unmapper.quietFlags().isEmpty()) {
            b.jvmArgsPrepend(Unmapper.quietFlags().toArray(new String[0]));
        }
        return b;
    }

    private static CommandLineOptions parse(String jmhArgs) {
        try {
            return new CommandLineOptions(jmhArgs.isBlank() ? new String[0] : jmhArgs.trim().split("\\s+"));
        } catch (org.openjdk.jmh.runner.options.CommandLineOptionException e) {
            throw new IllegalArgumentException("bad caskbench.jmhArgs: " + e.getMessage(), e);
        }
    }
}
