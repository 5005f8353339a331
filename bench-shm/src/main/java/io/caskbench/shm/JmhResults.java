package io.caskbench.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Version;

/**
 * Turns measurements made outside JMH (the C anchors, the messaging) into JMH's own result objects,
 * so JMH's JSON writer produces exactly the schema of a JMH run and the report reads them alike.
 */
public final class JmhResults {

    private JmhResults() {
    }

    /**
     * What a measurement was: its name, mode, parameters and who ran it.
     *
     * @param benchmark full name, e.g. {@code io.caskbench.shm.c.RegionAnchor.write}
     * @param mode JMH mode the score is expressed in
     * @param params parameters, in display order
     * @param warmups warm-up iterations made (not reported)
     * @param iteration the time (or cap) of one iteration
     * @param unit output time unit
     * @param runner what ran it, written where JMH writes the JVM path (e.g. the C binary)
     * @param runnerArgs its arguments, written as JMH's jvmArgs
     * @param runnerVersion version string (gcc's, or the JDK's), written as vmVersion
     */
    public record Spec(String benchmark, Mode mode, Map<String, String> params, int warmups,
                       TimeValue iteration, TimeUnit unit, String runner, List<String> runnerArgs,
                       String runnerVersion) {

        BenchmarkParams toParams(int forks, int iterations) {
            WorkloadParams workload = new WorkloadParams();
            int order = 0;
            for (Map.Entry<String, String> e : params.entrySet()) {
                workload.put(e.getKey(), e.getValue(), order++);
            }
            return new BenchmarkParams(benchmark, benchmark, false, 1, new int[] {1}, List.of(), forks, 0,
                    new IterationParams(IterationType.WARMUP, warmups, iteration, 1),
                    new IterationParams(IterationType.MEASUREMENT, iterations, iteration, 1),
                    mode, workload, unit, 1, runner, runnerArgs, System.getProperty("java.version"),
                    runner.contains("java") ? System.getProperty("java.vm.name") : "native",
                    runnerVersion, Version.getPlainVersion(),
                    TimeValue.minutes(10));
        }
    }

    /**
     * One finished measurement of one run: for every measured iteration, its primary result first and
     * any secondary results after it.
     */
    public static RunResult run(Spec spec, List<List<Result<?>>> iterations) {
        return runs(spec, List.of(iterations));
    }

    /**
     * One finished measurement of several runs (forks), each a list of iterations as in {@link #run}; the
     * JSON keeps each run's iterations apart, as JMH does for forks, so the report can show their spread.
     */
    public static RunResult runs(Spec spec, List<List<List<Result<?>>>> forks) {
        BenchmarkParams params = spec.toParams(forks.size(), forks.get(0).size());
        List<BenchmarkResult> benchmarks = new ArrayList<>();
        for (List<List<Result<?>>> iterations : forks) {
            List<IterationResult> results = new ArrayList<>();
            for (List<Result<?>> iteration : iterations) {
                IterationResult r = new IterationResult(params, params.getMeasurement(),
                        new IterationResultMetaData(0, 0));
                iteration.forEach(r::addResult);
                results.add(r);
            }
            benchmarks.add(new BenchmarkResult(params, results));
        }
        return new RunResult(params, benchmarks);
    }

    /** Writes results as JMH JSON to {@code file}, replacing it. */
    public static void write(Path file, Collection<RunResult> results) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        ResultFormatFactory.getInstance(ResultFormatType.JSON, file.toString()).writeOut(results);
    }
}
