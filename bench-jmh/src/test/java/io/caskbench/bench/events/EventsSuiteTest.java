package io.caskbench.bench.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.Suite;
import io.caskbench.bench.store.suite.SmokeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.Options;

/** The events suite: forks enough for a published reading in the quick profile, and a smoke run through {@code BenchMain}. */
class EventsSuiteTest {

    @Test
    void theQuickProfileRunsEveryRecordingInFiveForksOnOneBackend() {
        Options quick = new EventsSuite().options(Suite.Profile.QUICK).build();
        assertThat(quick.getForkCount().get()).isEqualTo(5);
        assertThat(quick.getParameter("backend").get()).containsExactly("MAPPED");
        assertThat(quick.getParameter("recording").hasValue()).as("every recording").isFalse();
    }

    @Test
    void theSmokeRunWritesTheOverheadTable(@TempDir Path results) throws Exception {
        SmokeRun.run(results, "events", null);

        String comparison = Files.readString(results.resolve("events-comparison.txt"));
        assertThat(comparison).contains("off / on (95% interval)", "none (JFR never started)", "JDK default + bitcask.jfc");
    }
}
