package io.caskbench.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.Optional;

/**
 * One row of a suite: one benchmark method with one value of each parameter in one mode, run by a JMH
 * run of its own, so that its result reaches disk the moment it is done (JMH hands results over only
 * at the end of a run). The runner splits each of a suite's runs into its trials ({@link #split}).
 *
 * @param suite the suite's name
 * @param run 0-based index of the suite's JMH run the trial belongs to
 * @param label the benchmark and its parameters, as people read them
 * @param benchmark the benchmark method, as JMH names it
 * @param params the value of each of the benchmark's parameters
 * @param options the run's options narrowed to this one trial
 * @param nominalSeconds the trial's nominal time ({@link RunEstimate})
 */
public record Trial(String suite, int run, String label, String benchmark, Map<String, String> params,
        Options options, double nominalSeconds) {

    /** Copies the parameters. */
    public Trial {
        params = Map.copyOf(params);
    }

    /**
     * The trials of one JMH run, in the order JMH itself would run them: by benchmark, then mode, then
     * parameter values in the order given.
     *
     * @param options the run's options (the user's arguments already layered over the suite's)
     * @param benchmarks the benchmarks those options match
     */
    static List<Trial> split(String suite, int run, Options options, Collection<BenchmarkListEntry> benchmarks) {
        List<Trial> trials = new ArrayList<>();
        for (BenchmarkListEntry b : benchmarks) {
            List<Map<String, String>> combinations = combinations(options, b);
            for (Mode mode : modes(options, b)) {
                for (Map<String, String> params : combinations) {
                    ChainedOptionsBuilder only = new OptionsBuilder();
                    params.forEach(only::param);
                    if (mode != null) {
                        only.mode(mode);
                    }
                    Options narrowed = new LayeredOptions(only.build(), options,
                            List.of("^" + Pattern.quote(b.getUsername()) + "$"));
                    String label = RunEstimate.label(List.of(b)) + (mode == null ? "" : " " + mode.shortLabel())
                            + varying(params, combinations);
                    trials.add(new Trial(suite, run, label, b.getUsername(), params, narrowed,
                            RunEstimate.of(narrowed, List.of(b)).nominalSeconds()));
                }
            }
        }
        return trials;
    }

    /** The modes to run one by one; a single null when the benchmark's own single mode applies. */
    private static List<Mode> modes(Options options, BenchmarkListEntry b) {
        List<Mode> modes = new ArrayList<>();
        if (!options.getBenchModes().isEmpty()) {
            modes.addAll(options.getBenchModes());
        } else if (b.getMode() == Mode.All) {
            for (Mode m : Mode.values()) {
                if (m != Mode.All) {
                    modes.add(m);
                }
            }
        } else {
            modes.add(null);
        }
        return modes;
    }

    /** Every combination of the benchmark's parameter values, the options' values first. */
    private static List<Map<String, String>> combinations(Options options, BenchmarkListEntry b) {
        List<Map<String, String>> all = new ArrayList<>();
        all.add(new TreeMap<>());
        Optional<Map<String, String[]>> declared = b.getParams();
        if (!declared.hasValue()) {
            return all;
        }
        for (Map.Entry<String, String[]> p : new TreeMap<>(declared.get()).entrySet()) {
            Optional<Collection<String>> given = options.getParameter(p.getKey());
            Collection<String> values = given.hasValue() ? given.get() : List.of(p.getValue());
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : all) {
                for (String v : values) {
                    Map<String, String> m = new TreeMap<>(partial);
                    m.put(p.getKey(), v);
                    next.add(m);
                }
            }
            all = next;
        }
        return all;
    }

    /** {@code " k=v k=v"} for the parameters that take more than one value in {@code all}. */
    private static String varying(Map<String, String> params, List<Map<String, String>> all) {
        StringBuilder s = new StringBuilder();
        params.forEach((k, v) -> {
            if (all.stream().map(m -> m.get(k)).distinct().count() > 1) {
                s.append(' ').append(k).append('=').append(v);
            }
        });
        return s.toString();
    }
}
