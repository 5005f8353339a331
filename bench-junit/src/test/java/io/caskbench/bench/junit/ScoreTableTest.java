package io.caskbench.bench.junit;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScoreTableTest {

    private static final Score MAPPED = Score.of("io.x.GetBench.get", Map.of("backend", "MAPPED", "size", "100"),
            2_000_000.0, 50_000.0, "ops/s");
    private static final Score CHANNEL = Score.of("io.x.GetBench.get", Map.of("backend", "FILE_CHANNEL", "size", "100"),
            700_000.0, Double.NaN, "ops/s");

    @Test
    void rendersEveryRowWithParamsScoreErrorAndUnit() {
        String text = ScoreTable.of(MAPPED, CHANNEL).toString();

        List<String> lines = text.lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).contains("Benchmark", "backend", "size", "Score", "Error", "Units");
        assertThat(lines.get(1)).contains("io.x.GetBench.get", "MAPPED", "100", "2,000,000.000", "± 50,000.000", "ops/s");
        assertThat(lines.get(2)).contains("FILE_CHANNEL", "700,000.000", "n/a");
        // numbers are right-aligned: the score columns end at the same place
        assertThat(lines.get(1).indexOf("2,000,000.000") + 13).isEqualTo(lines.get(2).indexOf("700,000.000") + 11);
        assertThat(text).doesNotContain(" \n");
    }

    @Test
    void marksTheRowsAskedFor() {
        String text = ScoreTable.of(MAPPED, CHANNEL).render(Set.of(CHANNEL));

        assertThat(text.lines().filter(l -> l.startsWith("* "))).singleElement().asString().contains("FILE_CHANNEL");
    }

    @Test
    void rowsWithoutAParamShowADash() {
        ScoreTable table = ScoreTable.of(MAPPED, Score.of("io.x.GetBench.open", 10.0, 1.0, "ops/s"));

        assertThat(table.toString().lines().skip(2).findFirst()).get().asString().contains(" - ");
    }

    @Test
    void isImmutable() {
        Map<String, String> params = new HashMap<>(Map.of("b", "2", "a", "1"));
        Score row = Score.of("x.y", params, 1, 0, "ops/s");
        params.put("c", "3");

        assertThat(row.params()).containsOnlyKeys("a", "b");
        assertThat(row.params().firstKey()).isEqualTo("a");
        assertThatThrownBy(() -> row.params().put("z", "0")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ScoreTable.of(row).rows().add(row)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void emptyTableSaysSo() {
        assertThat(ScoreTable.of(List.of()).toString()).contains("no scores");
    }

    @Test
    void convertsThroughputUnitsToOpsPerSecond() {
        assertThat(Score.of("a", 2.5, 0.5, "ops/ms").opsPerSecond()).isEqualTo(2_500.0);
        assertThat(Score.of("a", 2.5, 0.5, "ops/ms").errorOpsPerSecond()).isEqualTo(500.0);
        assertThat(Score.of("a", 3, 0, "ops/us").opsPerSecond()).isEqualTo(3_000_000.0);
        assertThat(Score.of("a", 120, 0, "ops/min").opsPerSecond()).isEqualTo(2.0);
        assertThatThrownBy(() -> Score.of("a", 3, 0, "ns/op").opsPerSecond())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Throughput mode");
    }

    @Test
    void namesMatchInFullOrAfterADot() {
        assertThat(MAPPED.isNamed("get")).isTrue();
        assertThat(MAPPED.isNamed("GetBench.get")).isTrue();
        assertThat(MAPPED.isNamed("io.x.GetBench.get")).isTrue();
        assertThat(MAPPED.isNamed("et")).isFalse();
        assertThat(MAPPED.shortName()).isEqualTo("get");
        assertThat(MAPPED.label()).isEqualTo("get{backend=MAPPED, size=100}");
    }
}
