package io.caskbench.bench.junit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Fluent assertions on the throughput of a {@link ScoreTable}.
 *
 * <pre>{@code
 * ScoreTable scores = JmhThroughput.of(GetBench.class).run();
 *
 * // relative, measured in the same run: the one to use in CI
 * assertThat(scores).benchmark("get").param("backend", "MAPPED").isAtLeastTimes(1.5, "FILE_CHANNEL");
 *
 * // absolute: a floor in operations per second
 * assertThat(scores).benchmark("get").where("backend", "MAPPED").isAtLeast(100_000);
 * }</pre>
 *
 * <p><b>Why relative assertions are the ones for CI.</b> An absolute floor holds only on the
 * machine it was tuned on: a shared CI runner, a laptop on battery, a container limited to one
 * core or a neighbour's build can halve every score, and the test fails although the code did
 * not change. A ratio of two scores measured in the same run, in the same JVM build, on the same
 * machine and under the same load, cancels most of that: a noisy neighbour slows both sides. It
 * still catches what a performance test is for, a change that makes the fast path lose its
 * advantage. Keep absolute floors far below what you measure (an order of magnitude guards
 * against accidental {@code fsync}s or a lost cache, not against a 10% regression), or run them
 * only on dedicated hardware.
 *
 * <p>Comparisons use the mean scores. After {@link ScoreTableAssert#beyondError()} they use the
 * pessimistic end of each 99.9% confidence interval instead, which makes a pass more meaningful
 * and a failure more likely on noisy machines. Every failure throws an {@link AssertionError}
 * whose message shows the whole score table with errors, the rows involved marked {@code *}.
 * This class depends on no test framework, so it works under JUnit 4, JUnit 5 or TestNG.
 * All scores must be throughput scores ({@code ops/<time unit>}); they are compared in ops/s.
 */
public final class ThroughputAssertions {

    private ThroughputAssertions() {
    }

    /** Starts an assertion on {@code scores}. */
    public static ScoreTableAssert assertThat(ScoreTable scores) {
        return new ScoreTableAssert(Objects.requireNonNull(scores, "scores"), false);
    }

    /** Assertions on a whole table: pick a benchmark to go on. */
    public static final class ScoreTableAssert {
        private final ScoreTable table;
        private final boolean beyondError;

        private ScoreTableAssert(ScoreTable table, boolean beyondError) {
            this.table = table;
            this.beyondError = beyondError;
        }

        /**
         * Compares the pessimistic ends of the confidence intervals ({@code score - error} of the
         * side that must be bigger, {@code score + error} of the other) instead of the means.
         */
        public ScoreTableAssert beyondError() {
            return new ScoreTableAssert(table, true);
        }

        /**
         * Selects the rows of one benchmark, named by its full name or by the part after a dot
         * (usually the method name).
         *
         * @throws AssertionError when no row has that name, or when the short name matches rows
         *                        of several benchmarks
         */
        public BenchmarkAssert benchmark(String name) {
            Objects.requireNonNull(name, "name");
            return new BenchmarkAssert(this, name, Map.of());
        }
    }

    /** Assertions on the rows of one benchmark, optionally narrowed to some parameter values. */
    public static final class BenchmarkAssert {
        private final ScoreTableAssert owner;
        private final String name;
        private final Map<String, String> where;
        private final List<Score> rows;

        private BenchmarkAssert(ScoreTableAssert owner, String name, Map<String, String> where) {
            this.owner = owner;
            this.name = name;
            this.where = where;
            this.rows = owner.table.rows(r -> r.isNamed(name) && r.params().entrySet().containsAll(where.entrySet()));
            if (rows.isEmpty()) {
                throw failure("No score for benchmark " + name + (where.isEmpty() ? "" : " where " + where), List.of());
            }
            Set<String> fullNames = rows.stream().map(Score::benchmark).collect(Collectors.toCollection(LinkedHashSet::new));
            if (fullNames.size() > 1) {
                throw failure("Benchmark name " + name + " is ambiguous, use one of " + fullNames, rows);
            }
            for (Score r : rows) {
                if (!r.isThroughput()) {
                    throw failure(r.label() + " is in " + r.unit() + ": throughput assertions need ops/<time unit>", rows);
                }
            }
        }

        /** Narrows the selection to the rows where parameter {@code param} has {@code value}. */
        public BenchmarkAssert where(String param, String value) {
            Map<String, String> narrower = new TreeMap<>(where);
            narrower.put(Objects.requireNonNull(param, "param"), Objects.requireNonNull(value, "value"));
            return new BenchmarkAssert(owner, name, narrower);
        }

        /**
         * Absolute: every selected row does at least {@code opsPerSecond} operations per second.
         * See the class documentation for why such floors belong on dedicated machines.
         */
        public BenchmarkAssert isAtLeast(double opsPerSecond) {
            if (!(opsPerSecond >= 0) || Double.isInfinite(opsPerSecond)) {
                throw new IllegalArgumentException("floor must be a finite number >= 0: " + opsPerSecond);
            }
            List<String> problems = new ArrayList<>();
            for (Score r : rows) {
                double low = owner.beyondError ? lower(r, problems) : r.opsPerSecond();
                if (low < opsPerSecond) {
                    problems.add(r.label() + " = " + describe(r) + (owner.beyondError ? " (lower bound " + ops(low) + ")" : ""));
                }
            }
            if (!problems.isEmpty()) {
                throw failure("Expected at least " + ops(opsPerSecond) + " ops/s from " + name + basis()
                        + ", but:\n  " + String.join("\n  ", problems), rows);
            }
            return this;
        }

        /**
         * Relative, same run: every selected row is at least {@code factor} times the row of
         * benchmark {@code other} with the same parameters.
         */
        public BenchmarkAssert isAtLeastTimes(double factor, String other) {
            Objects.requireNonNull(other, "other");
            List<Score[]> pairs = new ArrayList<>();
            for (Score a : rows) {
                pairs.add(new Score[] {a, counterpart(a, other, a.params())});
            }
            checkRatios(owner, pairs, factor, "benchmark " + other);
            return this;
        }

        /**
         * Starts a relative assertion between two values of one parameter, e.g.
         * {@code param("backend", "MAPPED").isAtLeastTimes(1.5, "FILE_CHANNEL")}.
         */
        public ParamAssert param(String param, String value) {
            Objects.requireNonNull(param, "param");
            Objects.requireNonNull(value, "value");
            return new ParamAssert(where(param, value), param);
        }

        /** The row of {@code benchmark} with exactly {@code params}; a short name means a method of a's class. */
        private Score counterpart(Score a, String benchmark, Map<String, String> params) {
            String prefix = a.benchmark().substring(0, a.benchmark().length() - a.shortName().length());
            List<Score> found = owner.table.rows(r -> r.params().equals(params)
                    && (r.benchmark().equals(benchmark) || r.benchmark().equals(prefix + benchmark)));
            if (found.size() != 1) {
                throw failure("No single score to compare " + a.label() + " with: wanted " + benchmark + params
                        + ", found " + found.size(), rows);
            }
            return found.get(0);
        }

        private String basis() {
            return owner.beyondError ? " (pessimistic end of the 99.9% interval)" : " (mean score)";
        }

        private AssertionError failure(String message, List<Score> involved) {
            return ThroughputAssertions.failure(owner.table, message, involved);
        }
    }

    /** A relative assertion between values of one parameter, within one benchmark. */
    public static final class ParamAssert {
        private final BenchmarkAssert selection;
        private final String param;

        private ParamAssert(BenchmarkAssert selection, String param) {
            this.selection = selection;
            this.param = param;
        }

        /**
         * Absolute: every row with this parameter's value does at least {@code opsPerSecond}
         * operations per second, as {@link BenchmarkAssert#isAtLeast} does for the selection; so
         * {@code benchmark("get").param("map", "HashMap").isAtLeast(100_000)} reads as it is written.
         */
        public ParamAssert isAtLeast(double opsPerSecond) {
            selection.isAtLeast(opsPerSecond);
            return this;
        }

        /** Narrows the selection further to the rows where parameter {@code other} has {@code value}. */
        public ParamAssert where(String other, String value) {
            return new ParamAssert(selection.where(other, value), param);
        }

        /**
         * Every selected row is at least {@code factor} times the row that differs from it only
         * in having {@code otherValue} for the parameter. With other parameters present, this
         * holds for each of their combinations.
         */
        public ParamAssert isAtLeastTimes(double factor, String otherValue) {
            Objects.requireNonNull(otherValue, "otherValue");
            List<Score[]> pairs = new ArrayList<>();
            for (Score a : selection.rows) {
                Map<String, String> params = new TreeMap<>(a.params());
                params.put(param, otherValue);
                pairs.add(new Score[] {a, selection.counterpart(a, a.benchmark(), params)});
            }
            checkRatios(selection.owner, pairs, factor, param + "=" + otherValue);
            return this;
        }
    }

    private static void checkRatios(ScoreTableAssert owner, List<Score[]> pairs, double factor, String what) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("factor must be a finite number > 0: " + factor);
        }
        List<String> problems = new ArrayList<>();
        List<Score> involved = new ArrayList<>();
        for (Score[] pair : pairs) {
            Score a = pair[0];
            Score b = pair[1];
            involved.add(a);
            involved.add(b);
            if (!b.isThroughput()) {
                problems.add(b.label() + " is in " + b.unit() + ", not a throughput unit");
                continue;
            }
            if (owner.beyondError && (Double.isNaN(a.error()) || Double.isNaN(b.error()))) {
                problems.add(a.label() + " or " + b.label() + " has no error estimate (it needs at least 3 measured iterations)");
                continue;
            }
            double top = owner.beyondError ? a.opsPerSecond() - a.errorOpsPerSecond() : a.opsPerSecond();
            double bottom = owner.beyondError ? b.opsPerSecond() + b.errorOpsPerSecond() : b.opsPerSecond();
            double ratio = top / bottom;
            if (!(ratio >= factor)) {
                problems.add(a.label() + " = " + describe(a) + " is " + String.format(Locale.ROOT, "%.2f", ratio)
                        + " x " + b.label() + " = " + describe(b));
            }
        }
        if (!problems.isEmpty()) {
            throw failure(owner.table, "Expected at least " + String.format(Locale.ROOT, "%.2f", factor) + " x "
                    + what + (owner.beyondError ? " beyond the 99.9% error" : " (mean scores)") + ", but:\n  "
                    + String.join("\n  ", problems), involved);
        }
    }

    /** The pessimistic end of a row's interval for a floor; records a problem when there is no error. */
    private static double lower(Score r, List<String> problems) {
        if (Double.isNaN(r.error())) {
            problems.add(r.label() + " has no error estimate (it needs at least 3 measured iterations)");
            return Double.NaN;
        }
        return r.opsPerSecond() - r.errorOpsPerSecond();
    }

    private static String describe(Score r) {
        return ops(r.opsPerSecond()) + (Double.isNaN(r.error()) ? "" : " ± " + ops(r.errorOpsPerSecond())) + " ops/s";
    }

    private static String ops(double value) {
        return String.format(Locale.ROOT, "%,.1f", value);
    }

    private static AssertionError failure(ScoreTable table, String message, List<Score> involved) {
        return new AssertionError(message + "\nScore table (rows involved marked *; errors are 99.9% confidence half-widths):\n"
                + table.render(Set.copyOf(involved)));
    }
}
