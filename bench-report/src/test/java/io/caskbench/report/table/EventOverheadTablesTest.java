package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.ResultFile;
import io.caskbench.report.rule.Spread;
import io.caskbench.report.testing.SampleRuns;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The events' overhead table from a fixture run: off / on per recording, with its interval and reading. */
class EventOverheadTablesTest {

    @Test
    void eachRecordingIsReadAgainstNoRecording(@TempDir Path tmp) throws Exception {
        List<JmhResult> rows = ResultFile.read(SampleRuns.copy("virtual-run", tmp).resolve("events.json")).results();

        String md = EventOverheadTables.render(rows).markdown(4);

        assertThat(md).contains("| operation | backend | recording | ops/s (fork means) | off / on (95% interval) | reading |");
        assertThat(VirtualTablesTest.line(md, "| get | MAPPED | none (JFR never started) |")).endsWith("|  |  |");
        // The fixture's JDK recording is as fast as none; bitcask.jfc's is 20% slower, over five forks.
        assertThat(VirtualTablesTest.line(md, "| get | MAPPED | JDK default |")).endsWith("| no cost measured |");
        assertThat(VirtualTablesTest.line(md, "| put | MAPPED | JDK default + bitcask.jfc |"))
                .matches(".*\\| 1\\.2\\d \\(1\\.\\d\\d-1\\.\\d\\d\\) \\| costs something \\|$");
    }

    @Test
    void fewForksMakeTheReadingIndicative() {
        Spread three = new Spread(1.2, 1.1, 1.3, 3);
        assertThat(EventOverheadTables.reading(three)).isEqualTo("costs something (indicative, 3 forks)");
        assertThat(EventOverheadTables.reading(new Spread(0.9, 0.85, 0.95, 5))).isEqualTo("faster with the recording");
        assertThat(EventOverheadTables.reading(new Spread(1.0, Double.NaN, Double.NaN, 1)))
                .isEqualTo("no interval (indicative, 1 fork)");
    }
}
