package io.caskbench.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Optional;

/**
 * What one JMH run of a suite will do and how long it would take if every iteration lasted exactly its
 * configured time: the benchmarks it matches, times their parameter combinations, modes and forks,
 * times warm-up plus measurement iterations, plus a fixed allowance per fork for starting the JVM and
 * the trial's set-up (filling a store, say). Settings come from the options first, then the benchmark's
 * annotations, then JMH's defaults, the order JMH itself uses. {@link Progress} scales this nominal
 * time by how long earlier runs really took.
 *
 * @param label the benchmarks, as people read them: {@code ThousandThreads.get}, {@code PeersSingleThread}
 * @param trials benchmark, mode and parameter combinations: what JMH calls one benchmark run each
 * @param nominalSeconds the nominal time of the whole run
 */
public record RunEstimate(String label, int trials, double nominalSeconds) {

    /** Allowance per fork for JVM start and trial set-up, which no iteration count shows. */
    static final double FORK_SECONDS = 2;

    /** Nominal length of one single-shot iteration, which has no configured time. */
    static final double SINGLE_SHOT_SECONDS = 1;

    /**
     * The parameter by which a single-shot benchmark says how long one call runs (a sustained run of
     * {@code seconds}); where it has one, its largest value is the call's nominal length.
     */
    static final String CALL_SECONDS = "seconds";

    /** How many benchmark classes a label names before it says how many more there are. */
    static final int MAX_NAMED = 3;

    /**
     * The estimate for running {@code benchmarks} with {@code options}.
     *
     * @param benchmarks the benchmarks the options' includes and excludes match
     */
    public static RunEstimate of(Options options, Collection<BenchmarkListEntry> benchmarks) {
        int trials = 0;
        double seconds = 0;
        for (BenchmarkListEntry b : benchmarks) {
            int combos = modes(options, b) * paramCombinations(options, b);
            trials += combos;
            seconds += combos * Shape.of(options, b).seconds();
        }
        return new RunEstimate(label(benchmarks), trials, seconds);
    }

    /**
     * How one trial of a benchmark runs: forks (warm-up forks included) and iterations, each setting from
     * the options, else the benchmark's annotations, else JMH's defaults.
     *
     * @param forks forks, warm-up forks included
     * @param warmups warm-up iterations per fork
     * @param warmupSeconds nominal length of one warm-up iteration
     * @param measurements measured iterations per fork
     * @param measurementSeconds nominal length of one measured iteration
     * @param singleShot whether each iteration is one call ({@link #SINGLE_SHOT_SECONDS} nominally, or its
     *     {@link #CALL_SECONDS} parameter)
     */
    record Shape(int forks, int warmups, double warmupSeconds, int measurements, double measurementSeconds,
            boolean singleShot) {

        /** The shape of {@code b} under {@code options}. */
        static Shape of(Options options, BenchmarkListEntry b) {
            boolean singleShot = options.getBenchModes().isEmpty() ? b.getMode() == Mode.SingleShotTime
                    : options.getBenchModes().stream().allMatch(m -> m == Mode.SingleShotTime);
            int forks = Math.max(1, first(options.getForkCount(), b.getForks(), Defaults.MEASUREMENT_FORKS))
                    + first(options.getWarmupForkCount(), b.getWarmupForks(), Defaults.WARMUP_FORKS);
            int wi = first(options.getWarmupIterations(), b.getWarmupIterations(),
                    singleShot ? Defaults.WARMUP_ITERATIONS_SINGLESHOT : Defaults.WARMUP_ITERATIONS);
            int mi = first(options.getMeasurementIterations(), b.getMeasurementIterations(),
                    singleShot ? Defaults.MEASUREMENT_ITERATIONS_SINGLESHOT : Defaults.MEASUREMENT_ITERATIONS);
            double call = callSeconds(options, b);
            double wt = singleShot ? call : RunEstimate.seconds(first(options.getWarmupTime(),
                    b.getWarmupTime(), Defaults.WARMUP_TIME));
            double mt = singleShot ? call : RunEstimate.seconds(first(options.getMeasurementTime(),
                    b.getMeasurementTime(), Defaults.MEASUREMENT_TIME));
            return new Shape(forks, wi, wt, mi, mt, singleShot);
        }

        /** Nominal seconds of the whole trial: every fork's allowance and iterations. */
        double seconds() {
            return forks * (FORK_SECONDS + warmups * warmupSeconds + measurements * measurementSeconds);
        }
    }

    /** A single call's nominal length: the largest {@link #CALL_SECONDS} value, else {@link #SINGLE_SHOT_SECONDS}. */
    private static double callSeconds(Options options, BenchmarkListEntry b) {
        if (!b.getParams().hasValue() || !b.getParams().get().containsKey(CALL_SECONDS)) {
            return SINGLE_SHOT_SECONDS;
        }
        Optional<Collection<String>> given = options.getParameter(CALL_SECONDS);
        Collection<String> values = given.hasValue() ? given.get() : List.of(b.getParams().get().get(CALL_SECONDS));
        return values.stream().mapToDouble(Double::parseDouble).max().orElse(SINGLE_SHOT_SECONDS);
    }

    /** JMH runs every mode the options name, or the benchmark's own; {@code Mode.All} is each real mode. */
    private static int modes(Options options, BenchmarkListEntry b) {
        if (!options.getBenchModes().isEmpty()) {
            return options.getBenchModes().size();
        }
        return b.getMode() == Mode.All ? Mode.values().length - 1 : 1;
    }

    /** The product, over the benchmark's parameters, of how many values each takes. */
    private static int paramCombinations(Options options, BenchmarkListEntry b) {
        int n = 1;
        if (b.getParams().hasValue()) {
            for (Map.Entry<String, String[]> p : b.getParams().get().entrySet()) {
                Optional<Collection<String>> given = options.getParameter(p.getKey());
                n *= Math.max(1, given.hasValue() ? given.get().size() : p.getValue().length);
            }
        }
        return n;
    }

    private static <T> T first(Optional<T> option, Optional<T> annotation, T fallback) {
        return option.hasValue() ? option.get() : annotation.orElse(fallback);
    }

    private static double seconds(TimeValue t) {
        return t.convertTo(TimeUnit.MICROSECONDS) / 1e6;
    }

    /**
     * {@code Class} for several methods of one class, {@code Class.method} for one, comma-separated
     * classes, at most {@link #MAX_NAMED} of them.
     */
    static String label(Collection<BenchmarkListEntry> benchmarks) {
        Map<String, Set<String>> methods = new LinkedHashMap<>();
        for (BenchmarkListEntry b : benchmarks) {
            String name = b.getUsername();
            int dot = name.lastIndexOf('.');
            String cls = name.substring(name.lastIndexOf('.', dot - 1) + 1, dot);
            methods.computeIfAbsent(cls, k -> new LinkedHashSet<>()).add(name.substring(dot + 1));
        }
        List<String> names = methods.entrySet().stream()
                .map(e -> e.getValue().size() == 1 ? e.getKey() + "." + e.getValue().iterator().next() : e.getKey())
                .toList();
        // A run over a whole suite (files) names a few classes, not fourteen.
        return names.size() <= MAX_NAMED ? String.join(", ", names)
                : String.join(", ", names.subList(0, MAX_NAMED)) + " and " + (names.size() - MAX_NAMED) + " more";
    }
}
