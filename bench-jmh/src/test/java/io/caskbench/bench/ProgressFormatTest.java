package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/** JMH's output with the whole run's progress line in place of JMH's own estimate, and again at each fork. */
class ProgressFormatTest {

    @Test
    void theWholeRunsLineReplacesJmhsAndFollowsEveryForkAndLongIteration() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        long[] now = {0};
        Progress progress = new Progress(List.of(new Trial("store", 0, "A", "a", Map.of(),
                new OptionsBuilder().build(), 100)), () -> now[0]);
        progress.start();
        progress.trialStarted(0);
        ProgressFormat format = new ProgressFormat(OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL),
                progress, () -> now[0]);

        format.println("# Run progress: 0.00% complete, ETA 00:00:05");
        format.println("# Fork: 2 of 3");
        RunResult row = RunFolderTest.row("get", 1);
        var params = row.getParams();
        IterationParams measure = params.getMeasurement();
        IterationResult iteration = new IterationResult(params, measure, new IterationResultMetaData(1, 1));
        iteration.addResult(new ThroughputResult(ResultRole.PRIMARY, "get", 1, 1_000_000_000L, TimeUnit.SECONDS));
        format.iterationResult(params, measure, 1, iteration);
        now[0] += ProgressFormat.REPEAT_NANOS;
        format.iterationResult(params, measure, 2, iteration);
        format.endRun(List.of(row));
        format.close();

        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("# Run progress:", "ETA 00:00:05");
        assertThat(text).contains("# Fork: 2 of 3\n[caskbench] 0 of 1 rows done; run 1 of 1 (store: A), fork 2 of 3");
        assertThat(text.split("\\[caskbench]", -1)).as("the line at the start, at the fork, after 30 s").hasSize(4);
        assertThat(progress.nominalDone()).isEqualTo(RunEstimate.FORK_SECONDS + 2 * 1);
        assertThat(text).as("no table per row").doesNotContain("Benchmark  ");
    }
}
