package io.caskbench.bench.junit;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JmhThroughputTest {

    static {
        // The one real run below measures nothing, so it need not queue behind other JMH runs on
        // the machine; JMH reads this once, when its Runner class is loaded.
        System.setProperty("jmh.ignoreLock", "true");
    }

    @Test
    void quickDefaults() {
        Options o = JmhThroughput.of(CounterBench.class).buildOptions();

        assertThat(o.getBenchModes()).containsExactly(Mode.Throughput);
        assertThat(o.getTimeUnit().get()).isEqualTo(TimeUnit.SECONDS);
        assertThat(o.getForkCount().get()).isEqualTo(1);
        assertThat(o.getWarmupIterations().get()).isEqualTo(2);
        assertThat(o.getWarmupTime().get()).isEqualTo(TimeValue.milliseconds(200));
        assertThat(o.getMeasurementIterations().get()).isEqualTo(3);
        assertThat(o.getMeasurementTime().get()).isEqualTo(TimeValue.milliseconds(300));
        assertThat(o.getThreads().get()).isEqualTo(1);
        assertThat(o.shouldFailOnError().get()).isTrue();
        assertThat(o.getResult().hasValue()).isFalse();
    }

    @Test
    void includesOnlyTheMethodsOfTheClass() {
        List<String> all = JmhThroughput.of(CounterBench.class).buildOptions().getIncludes();
        List<String> one = JmhThroughput.of(CounterBench.class).methods("increment").buildOptions().getIncludes();

        String name = CounterBench.class.getName();
        assertThat(all).singleElement().satisfies(regex -> {
            assertThat(Pattern.compile(regex).matcher(name + ".increment").find()).isTrue();
            assertThat(Pattern.compile(regex).matcher(name + "Other.increment").find()).isFalse();
            assertThat(Pattern.compile(regex).matcher("x" + name.replace('.', 'x') + ".increment").find()).isFalse();
        });
        assertThat(one).singleElement().satisfies(regex -> {
            assertThat(Pattern.compile(regex).matcher(name + ".increment").find()).isTrue();
            assertThat(Pattern.compile(regex).matcher(name + ".incrementTwice").find()).isFalse();
        });
    }

    @Test
    void overridesReachTheOptions() {
        Options o = JmhThroughput.of(CounterBench.class)
                .param("step", "1", "7")
                .forks(2)
                .warmup(0, Duration.ofMillis(5))
                .measurement(4, Duration.ofSeconds(1))
                .threads(2)
                .verbosity(VerboseMode.SILENT)
                .resultJson(java.nio.file.Path.of("target", "x.json"))
                .options(b -> b.jvmArgsAppend("-Xmx64m"))
                .options(b -> b.operationsPerInvocation(3))
                .lockWait(Duration.ZERO)
                .buildOptions();

        assertThat(o.getParameter("step").get()).containsExactly("1", "7");
        assertThat(o.getForkCount().get()).isEqualTo(2);
        assertThat(o.getWarmupIterations().get()).isZero();
        assertThat(o.getMeasurementIterations().get()).isEqualTo(4);
        assertThat(o.getMeasurementTime().get()).isEqualTo(TimeValue.milliseconds(1000));
        assertThat(o.getThreads().get()).isEqualTo(2);
        assertThat(o.verbosity().get()).isEqualTo(VerboseMode.SILENT);
        assertThat(o.getResult().get()).endsWith("x.json");
        assertThat(o.getJvmArgsAppend().get()).containsExactly("-Xmx64m");
        assertThat(o.getOperationsPerInvocation().get()).isEqualTo(3);
    }

    @Test
    void rejectsSettingsThatMakeNoHonestRun() {
        assertThatThrownBy(() -> JmhThroughput.of(CounterBench.class).forks(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JmhThroughput.of(CounterBench.class).measurement(0, Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JmhThroughput.of(CounterBench.class).param("step")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JmhThroughput.of(CounterBench.class).lockWait(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JmhThroughput.of(new Object() { }.getClass())).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * One real run through JMH, forked, with very short iterations: checks that scores, params
     * and units arrive in the table. It asserts nothing about speed.
     */
    @Test
    void realRunFillsTheTableFromJmh() {
        ScoreTable table = JmhThroughput.of(CounterBench.class)
                .methods("increment")
                .param("step", "1", "2")
                .warmup(1, Duration.ofMillis(20))
                .measurement(3, Duration.ofMillis(20))
                .options(b -> b.jvmArgsAppend("-Xmx64m", "-XX:TieredStopAtLevel=1"))
                .verbosity(VerboseMode.SILENT)
                .run();

        assertThat(table.rows()).extracting(Score::label).containsExactly("increment{step=1}", "increment{step=2}");
        assertThat(table.rows()).allSatisfy(r -> {
            assertThat(r.benchmark()).isEqualTo(CounterBench.class.getName() + ".increment");
            assertThat(r.unit()).isEqualTo("ops/s");
            assertThat(r.score()).isPositive();
            assertThat(r.error()).isNotNaN();
        });
        assertThat(table.toString()).contains("step", "increment");
    }
}
