package io.caskbench.report.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.ResultFile;
import io.caskbench.report.rule.CrossCheck;
import io.caskbench.report.testing.SampleRuns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JMH's own @Threads(1000) figure is marked "not a result" wherever the report shows it. */
class CrossCheckLabelTest {

    @Test
    void thePageTheSummaryAndTheChartTitlesMarkTheCrossCheck(@TempDir Path tmp) throws Exception {
        Path results = SampleRuns.copy("sample-run", tmp);
        Path index = Reports.renderAll(results);

        String html = Files.readString(index, StandardCharsets.UTF_8);
        int row = html.indexOf("<td>JmhThreadsCrossCheck.get</td>");
        assertThat(row).isPositive();
        assertThat(html.substring(row, html.indexOf("</tr>", row))).contains(CrossCheck.LABEL);
        // The charts leave the cross-check out altogether, so no chart can present it as a result.
        assertThat(html).doesNotContain("JmhThreadsCrossCheck (");
        assertThat(Files.readString(results.resolve("threads-summary.txt"), StandardCharsets.UTF_8))
                .containsPattern("JmhThreadsCrossCheck\\.get .*\\[CROSS-CHECK, NOT A RESULT\\]");
        // exactly one badge per cross-check row, and none on any other row
        long crossChecks = ResultFile.read(results.resolve("threads.json")).results().stream()
                .filter(r -> r.benchmark().contains("CrossCheck")).count();
        assertThat(html.split("badge xbadge\">" + CrossCheck.LABEL, -1)).hasSize((int) crossChecks + 1);
    }
}
