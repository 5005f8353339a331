package io.caskbench.report.rule;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap over forks, on synthetic runs whose truth is known: forks that differ from each other
 * more than the iterations within one do, as JMH forks do.
 */
class BootstrapTest {

    private static final int FORKS = 5;
    private static final int ITERATIONS = 5;

    /** A run of {@code forks} forks around {@code mean}: each fork off by a few percent, its iterations by less. */
    static List<List<Double>> run(Random random, double mean, int forks) {
        List<List<Double>> run = new ArrayList<>();
        for (int f = 0; f < forks; f++) {
            double forkMean = mean * (1 + 0.05 * random.nextGaussian());
            List<Double> iterations = new ArrayList<>();
            for (int i = 0; i < ITERATIONS; i++) {
                iterations.add(forkMean * (1 + 0.02 * random.nextGaussian()));
            }
            run.add(iterations);
        }
        return run;
    }

    static Metric metric(List<List<Double>> raw) {
        double mean = raw.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        return new Metric(mean, Double.NaN, List.of(), java.util.Map.of(), "ops/s", raw);
    }

    @Test
    void aTrueTieIsCalledAWinOrALossInWellUnderTenPercentOfTrials() {
        int trials = 300;
        int called = 0;
        for (int t = 0; t < trials; t++) {
            long seed = 1000 + t;
            Random random = new Random(seed);
            Spread s = Spread.of(metric(run(random, 1e6, FORKS)), metric(run(random, 1e6, FORKS)));
            if (s.verdict(true) != Spread.Verdict.UNDETERMINED) {
                called++;
            }
        }
        // A calibrated 95% interval calls about 5% of ties; the old min-against-max rule called about 10%.
        assertThat(called).as("ties called a win or a loss out of %d", trials).isLessThan(trials * 7 / 100);
    }

    @Test
    void aClearDifferenceIsCalledAtFiveForks() {
        Random random = new Random(7);
        Spread s = Spread.of(metric(run(random, 1.3e6, FORKS)), metric(run(random, 1e6, FORKS)));
        assertThat(s.verdict(true)).as("seed 7: %s", s).isEqualTo(Spread.Verdict.WIN);
        assertThat(s.indicative()).isFalse();
        assertThat(s.low()).isLessThan(1.3).isGreaterThan(1.0);
        assertThat(s.high()).isGreaterThan(1.3);
    }

    @Test
    void theSameRunsAlwaysGiveTheSameInterval() {
        Random random = new Random(11);
        Metric a = metric(run(random, 2e6, FORKS));
        Metric b = metric(run(random, 1e6, FORKS));
        assertThat(Spread.of(a, b)).isEqualTo(Spread.of(a, b));
        assertThat(Spread.of(a, b).cell()).isEqualTo(Spread.of(a, b).cell());
    }

    @Test
    void aClearMissOfAnAtMostGoalReadsNotMet() {
        Random random = new Random(21);
        Spread s = Spread.of(metric(run(random, 4.8, FORKS)), metric(run(random, 1.0, FORKS)));
        Goal goal = Goal.atMost(1.5);
        assertThat(goal.judge(s)).isEqualTo(Goal.Verdict.NOT_MET);
        assertThat(goal.reading(s)).startsWith("not met: 4.").contains("times, the goal is at most 1.50 times")
                .doesNotContain("indicative");
        // With three forks, as the default run measures, the same miss still reads not met, marked indicative.
        Spread three = Spread.of(metric(run(random, 4.8, 3)), metric(run(random, 1.0, 3)));
        assertThat(goal.judge(three)).isEqualTo(Goal.Verdict.NOT_MET);
        assertThat(goal.reading(three)).startsWith("not met: ").endsWith("(indicative, 3 forks)");
    }

    @Test
    void aGoalIsMetOnlyWhenTheWholeIntervalClearsIt() {
        Goal goal = Goal.atLeast(3.0);
        assertThat(goal.judge(new Spread(3.4, 3.1, 3.7, 5))).isEqualTo(Goal.Verdict.MET);
        assertThat(goal.judge(new Spread(3.1, 2.9, 3.3, 5))).isEqualTo(Goal.Verdict.UNDETERMINED);
        assertThat(goal.judge(new Spread(2.5, 2.3, 2.7, 5))).isEqualTo(Goal.Verdict.NOT_MET);
        assertThat(goal.judge(new Spread(3.4, Double.NaN, Double.NaN, 1))).isEqualTo(Goal.Verdict.UNDETERMINED);
        assertThat(goal.reading(new Spread(3.4, 3.1, 3.7, 5))).isEqualTo("met: 3.40 times, the goal is at least 3.00 times");
        assertThat(goal.reading(new Spread(3.4, Double.NaN, Double.NaN, 1)))
                .isEqualTo("undetermined: 3.40 times, the goal is at least 3.00 times, one fork: no interval"
                        + " (indicative, 1 fork)");
    }

    @Test
    void oneForkHasNoIntervalAndNoVerdict() {
        Random random = new Random(3);
        Spread s = Spread.of(metric(run(random, 9e6, 1)), metric(run(random, 1e6, 1)));
        assertThat(s.hasSpread()).isFalse();
        assertThat(s.verdict(true)).isEqualTo(Spread.Verdict.UNDETERMINED);
        assertThat(s.reading(true)).isEqualTo("undetermined (indicative, 1 fork)");
    }

    @Test
    void theTailShareWidensForFewForks() {
        assertThat(Bootstrap.tailShare(5)).isBetween(0.0005, 0.0015);
        assertThat(Bootstrap.tailShare(40)).isBetween(0.02, 0.03);
        assertThat(Bootstrap.normalTail(1.96)).isBetween(0.0249, 0.0251);
    }
}
