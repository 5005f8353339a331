package io.caskbench.bench.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs {@link EventOverhead} once per recording, for a moment each, so that a broken fixture fails the build. Measures nothing. */
class EventOverheadSmokeTest {

    @Test
    void everyRecordingRunsGetsAndPuts() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(EventOverhead.class.getName())
                .param("backend", "FILE_CHANNEL")
                .param("keyCount", "1024")
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(200))
                .timeUnit(TimeUnit.SECONDS)
                .shouldFailOnError(true)
                .build()).run();
        assertThat(results).hasSize(2 * EventOverhead.RecordingKind.values().length);
        assertThat(results).allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
    }
}
