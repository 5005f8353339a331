package io.caskbench.bench.files;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.reflect.ClassPath;
import io.caskbench.bench.Suite;
import io.caskbench.bench.files.fixture.PageCache;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * Runs every benchmark of the files suite once, briefly, in a forked JVM, through JMH's Runner
 * API, and fails if any benchmark errors or is missing from the results. Proves the benchmarks
 * run; says nothing about their speed.
 */
class FilesSuiteSmokeTest {

    @Test
    void everyBenchmarkRunsInTheSmokeProfile() throws RunnerException, IOException {
        Path json = Paths.get("target", "files-smoke.json");
        Files.createDirectories(json.getParent());
        // Per-file eviction: drop_caches in every build would empty the caches of everything else on the machine.
        String evict = "-D" + PageCache.METHOD_PROPERTY + "=fadvise";
        ChainedOptionsBuilder options;
        System.setProperty(PageCache.METHOD_PROPERTY, "fadvise");
        try {
            options = new FilesSuite().options(Suite.Profile.SMOKE);
        } finally {
            System.clearProperty(PageCache.METHOD_PROPERTY);
        }
        // Timing does not matter here, so a benchmark run of someone else holding JMH's lock must not fail the build.
        System.setProperty("jmh.ignoreLock", "true");
        Collection<RunResult> results = new Runner(options
                .jvmArgsAppend(evict)
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString())
                .build()).run();

        Set<String> ran = results.stream()
                .map(result -> result.getParams().getBenchmark())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(ran).containsExactlyInAnyOrderElementsOf(benchmarkMethods());
        assertThat(results).allSatisfy(result ->
                assertThat(result.getPrimaryResult().getSampleCount()).isPositive());
    }

    /** Every {@code @Benchmark} method of a concrete class in the suite's packages, by JMH name. */
    private static Set<String> benchmarkMethods() throws IOException {
        Set<String> names = new TreeSet<>();
        for (ClassPath.ClassInfo info : ClassPath.from(FilesSuite.class.getClassLoader())
                .getTopLevelClassesRecursive(FilesSuite.class.getPackageName())) {
            if (info.getPackageName().endsWith("jmh_generated")) {
                continue;
            }
            Class<?> type = info.load();
            if (Modifier.isAbstract(type.getModifiers())) {
                continue;
            }
            for (Method method : type.getMethods()) {
                if (method.isAnnotationPresent(Benchmark.class)) {
                    names.add(type.getName() + "." + method.getName());
                }
            }
        }
        assertThat(names).hasSizeGreaterThan(20);
        return names;
    }
}
