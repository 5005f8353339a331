package io.caskbench.report.page;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.type.TypeReference;
import io.caskbench.report.input.CacheState;
import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Json;
import io.caskbench.report.input.Units;
import io.caskbench.report.rule.SuiteResults;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The seeds' published figures and the mapping from each seed experiment to our benchmark and
 * parameters, kept in one resource ({@code seed-figures.json} beside this class) so that a figure or
 * a mapping is changed in one place. The report sets each against our figure from the same run.
 */
public final class SeedFigures {

    private static final String RESOURCE = "seed-figures.json";

    private SeedFigures() {
    }

    /**
     * Which of our rows stands for a seed experiment.
     *
     * @param suite suite name the row must come from (optional: any suite)
     * @param benchmark regex found in the fully qualified benchmark name; written as the regex {@code \.Class\.method$}
     *     so that a benchmark moved to another package still matches
     * @param params parameter name to regex its value must match; a name ending in {@code ?} is
     *     optional (checked only when the row has that parameter)
     * @param ourOpsPerSeedOp how many of our operations make one of the seed's (800 when the seed timed
     *     a pass over 800 files and we time one file); 1 when absent
     * @param seedOpsPerOurOpParam alternatively, a parameter whose numeric value times a multiplier says
     *     how many seed operations one of ours covers (a scaled file set measured in MiB, say)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Match(String suite, String benchmark, Map<String, String> params, Double ourOpsPerSeedOp,
                        ParamScale seedOpsPerOurOpParam) {

        /** Whether a row of the given suite is this experiment's counterpart. */
        public boolean matches(String rowSuite, JmhResult r) {
            if (suite != null && !suite.equalsIgnoreCase(rowSuite)) {
                return false;
            }
            if (!Pattern.compile(benchmark).matcher(r.benchmark()).find()) {
                return false;
            }
            if (params != null) {
                for (Map.Entry<String, String> p : params.entrySet()) {
                    boolean optional = p.getKey().endsWith("?");
                    String name = optional ? p.getKey().substring(0, p.getKey().length() - 1) : p.getKey();
                    String value = r.params().get(name);
                    if (value == null ? !optional : !Pattern.compile(p.getValue()).matcher(value).find()) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** How many seed operations one of our operations covers, for this row. */
        OptionalDouble seedOpsPerOurOp(JmhResult r) {
            if (seedOpsPerOurOpParam != null) {
                return seedOpsPerOurOpParam.valueFor(r);
            }
            boolean absent = ourOpsPerSeedOp == null || ourOpsPerSeedOp.isNaN();
            return OptionalDouble.of(1.0 / (absent ? 1.0 : ourOpsPerSeedOp));
        }
    }

    /**
     * A parameter that scales an operation: {@code value(param) * multiplier} seed operations per ours.
     *
     * @param param regex for the parameter name
     * @param multiplier factor applied to the parameter's numeric value (k/m/g suffixes are binary)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ParamScale(String param, double multiplier) {

        private static final Pattern NUMBER = Pattern.compile("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kKmMgG])?");

        OptionalDouble valueFor(JmhResult r) {
            Pattern name = Pattern.compile(param);
            for (Map.Entry<String, String> e : r.params().entrySet()) {
                if (name.matcher(e.getKey()).find()) {
                    Matcher m = NUMBER.matcher(e.getValue());
                    if (m.find()) {
                        double v = Double.parseDouble(m.group(1));
                        if (m.group(2) != null) {
                            v *= Math.pow(1024, "kmg".indexOf(m.group(2).toLowerCase(Locale.ROOT)) + 1);
                        }
                        return OptionalDouble.of(v * multiplier);
                    }
                }
            }
            return OptionalDouble.empty();
        }
    }

    /**
     * One seed experiment with its published figure.
     *
     * @param id stable identifier, {@code <seed>-<short name>}
     * @param seed seed number (000..004)
     * @param experiment what the seed measured, with its parameters
     * @param seedMachine the machine the seed measured on
     * @param seedFigure the published figure, in {@code seedUnit}
     * @param seedUnit a JMH-style unit used for conversion ({@code ms/op}, {@code ops/s}) or {@code ratio}
     * @param unitLabel how the unit reads in the table ("ms per pass of 800 files")
     * @param ours candidate counterparts, first match wins
     * @param why one sentence on why our figure and the seed's differ
     * @param comparable false when the seed's figure does not measure what its label says
     * @param ratioOf for ratio experiments: "time" (time ratio) or "rate" (throughput ratio)
     * @param numerator for ratio experiments: the numerator's counterparts
     * @param denominator for ratio experiments: the denominator's counterparts
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    /** What each reference experiment measured, by its id in the figures file: how the report names it. */
    private static final java.util.Map<String, String> TITLES = java.util.Map.of(
            "000", "buffered read against mmap on a phone, small and large files",
            "001", "MappedByteBuffer writes and clears against C, and shared memory against UDP",
            "002", "a Java BitCask: puts and gets on one thread and on 1000",
            "003", "file-system operations on iOS",
            "004", "stream reads against mmap for random chunks of a large file");

    /** The name of the reference experiment with {@code id}, by what it measured. */
    public static String title(String id) {
        return TITLES.getOrDefault(id, "reference experiment " + id);
    }

    public record Entry(String id, String seed, String experiment, String seedMachine, double seedFigure,
                        String seedUnit, String unitLabel, List<Match> ours, String why, Boolean comparable,
                        String ratioOf, List<Match> numerator, List<Match> denominator) {

        /** Fills absent lists and flags. */
        public Entry {
            ours = ours == null ? List.of() : ours;
            numerator = numerator == null ? List.of() : numerator;
            denominator = denominator == null ? List.of() : denominator;
            comparable = comparable == null || comparable;
        }

        /** Whether the figure is a ratio between two of the seed's own measurements. */
        public boolean isRatio() {
            return ratioOf != null;
        }

        /** Whether a higher figure is better, for wording the ratio. */
        public boolean higherIsBetter() {
            return isRatio() ? "rate".equals(ratioOf) : Units.isRate(seedUnit);
        }
    }

    /**
     * A seed experiment set against this run.
     *
     * @param entry the seed experiment
     * @param rows our rows that produced the figure (empty when the run has none)
     * @param ours our figure in the seed's unit, if we have one
     * @param status why {@code ours} is absent ("not in this run", "cold cache not achieved"), or empty
     */
    public record Outcome(Entry entry, List<JmhResult> rows, OptionalDouble ours, String status) {

        /** Our figure divided by the seed's, when both exist and the seed's figure means what it says. */
        public OptionalDouble ratio() {
            if (ours.isEmpty() || !entry.comparable() || entry.seedFigure() == 0) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(ours.getAsDouble() / entry.seedFigure());
        }
    }

    /** Loads every seed experiment from the resource, in file order. */
    public static List<Entry> load() {
        try (InputStream in = SeedFigures.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException("resource " + RESOURCE + " missing from the classpath");
            }
            return Json.MAPPER.readValue(in, new TypeReference<List<Entry>>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets every seed experiment against the given suites' results. */
    public static List<Outcome> compare(List<SuiteResults> suites, CacheState cache) {
        List<Outcome> out = new ArrayList<>();
        for (Entry e : load()) {
            out.add(compare(e, suites, cache));
        }
        return out;
    }

    static Outcome compare(Entry e, List<SuiteResults> suites, CacheState cache) {
        if (e.isRatio()) {
            Optional<Found> num = find(e.numerator(), suites);
            Optional<Found> den = find(e.denominator(), suites);
            if (num.isEmpty() || den.isEmpty()) {
                return new Outcome(e, List.of(), OptionalDouble.empty(), "not in this run");
            }
            OptionalDouble n = num.get().secondsPerSeedOp();
            OptionalDouble d = den.get().secondsPerSeedOp();
            if (n.isEmpty() || d.isEmpty()) {
                return new Outcome(e, List.of(num.get().row, den.get().row), OptionalDouble.empty(), "units do not convert");
            }
            double timeRatio = n.getAsDouble() / d.getAsDouble();
            return new Outcome(e, List.of(num.get().row, den.get().row),
                    OptionalDouble.of("rate".equals(e.ratioOf()) ? 1 / timeRatio : timeRatio), "");
        }
        Optional<Found> found = find(e.ours(), suites);
        if (found.isEmpty()) {
            return new Outcome(e, List.of(), OptionalDouble.empty(), "not in this run");
        }
        JmhResult row = found.get().row;
        if (CacheState.isColdRequested(row) && !cache.reallyCold(row)) {
            return new Outcome(e, List.of(row), OptionalDouble.empty(), "cold cache not achieved in this run");
        }
        OptionalDouble s = found.get().secondsPerSeedOp();
        if (s.isEmpty()) {
            return new Outcome(e, List.of(row), OptionalDouble.empty(), "units do not convert");
        }
        return new Outcome(e, List.of(row), Units.fromSecondsPerItem(s.getAsDouble(), e.seedUnit()), "");
    }

    private record Found(JmhResult row, Match match) {
        OptionalDouble secondsPerSeedOp() {
            OptionalDouble perOurOp = Units.secondsPerItem(row.primaryMetric().score(), row.primaryMetric().scoreUnit());
            OptionalDouble scale = match.seedOpsPerOurOp(row);
            if (perOurOp.isEmpty() || scale.isEmpty() || scale.getAsDouble() <= 0) {
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(perOurOp.getAsDouble() / scale.getAsDouble());
        }
    }

    private static Optional<Found> find(List<Match> candidates, List<SuiteResults> suites) {
        for (Match m : candidates) {
            for (SuiteResults s : suites) {
                for (JmhResult r : s.pool()) {
                    if (m.matches(s.name(), r)) {
                        return Optional.of(new Found(r, m));
                    }
                }
            }
        }
        return Optional.empty();
    }
}
