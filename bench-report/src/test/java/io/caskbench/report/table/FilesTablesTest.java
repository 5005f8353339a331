package io.caskbench.report.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.input.JmhResult;
import io.caskbench.report.input.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The files comparison names the winner per setting only outside the spread, and never calls an unverified row cold. */
class FilesTablesTest {

    private static final Map<String, String> WARM = Map.of("cache", "warm", "fileCount", "800");
    private static final Map<String, String> COLD = Map.of("cache", "cold", "fileCount", "800");

    /** Three forks at {@code score * (1 -/+ wobble)} and {@code score}. */
    private static JmhResult row(String cls, String method, Map<String, String> params, double score, double wobble,
            Map<String, Double> secondary) {
        Map<String, Metric> extra = new LinkedHashMap<>();
        secondary.forEach((k, v) -> extra.put(k, Metric.of(v, Double.NaN, "#")));
        return new JmhResult("io.caskbench.bench.files.read." + cls + "." + method, "avgt", 1, 3, null, null, params,
                new Metric(score, Double.NaN, List.of(), Map.of(), "ms/op",
                        List.of(List.of(score * (1 - wobble)), List.of(score), List.of(score * (1 + wobble)))), extra);
    }

    private static Map<String, Double> cold(double dropCaches, double fadvise, double unverified) {
        return Map.of("coldDropCaches", dropCaches, "coldFadvise", fadvise, "coldUnverified", unverified);
    }

    @Test
    void saysWhetherMmapWinsOrLosesPerSettingOnlyOutsideTheSpread() {
        Map<String, String> big = Map.of("chunk", "256", "randomFileMb", "256");
        Map<String, String> mid = Map.of("chunk", "4096", "randomFileMb", "256");
        String text = FilesTables.render(List.of(
                row("SmallFileSetRead", "mapped", WARM, 24, 0.1, Map.of()),
                row("SmallFileSetRead", "channelDirect", WARM, 6, 0.1, Map.of()),
                row("RandomChunkRead", "mapped", big, 150, 0.1, Map.of()),
                row("RandomChunkRead", "channelPositional", big, 900, 0.1, Map.of()),
                row("RandomChunkRead", "mapped", mid, 100, 0.2, Map.of()),
                row("RandomChunkRead", "channelPositional", mid, 110, 0.2, Map.of()))).text();

        assertThat(text).contains("mmap loses: 4.0x slower than the best other reader (channelDirect)");
        assertThat(text).contains("mmap wins: 6.0x faster than the best other reader (channelPositional), interval 6.00 (4.91-7.33)");
        assertThat(text).contains("undetermined, the interval holds 1: mmap 1.1x faster");
    }

    @Test
    void forcingEachChunkAgainstAtTheEndGetsItsOwnVerdictWithItsSpread() {
        Map<String, String> small = Map.of("writeChunkKb", "512", "writeTotalMb", "64");
        Map<String, String> mid = Map.of("writeChunkKb", "1024", "writeTotalMb", "64");
        Map<String, String> big = Map.of("writeChunkKb", "8192", "writeTotalMb", "64");
        String text = FilesTables.render(List.of(
                write(small, "each", 300, 0.1), write(small, "end", 100, 0.1),
                write(mid, "each", 100, 0.1), write(mid, "end", 105, 0.1),
                write(big, "each", 90, 0.8), write(big, "end", 100, 0.1))).text();

        assertThat(text).contains("-> writeChunkKb=512 writeTotalMb=64: forcing once at the end is faster,"
                + " force each chunk / force at the end 3.00 (");
        assertThat(text).contains("-> writeChunkKb=1024 writeTotalMb=64: no winner, the ratio's range holds 1");
        assertThat(text).contains("-> writeChunkKb=8192 writeTotalMb=64: too noisy to read (a fork spread above 50%)");
        assertThat(text).containsPattern("force=each writeChunkKb=8192 writeTotalMb=64 .*160% too noisy to read");
        assertThat(text).doesNotContainPattern("writeChunkKb=512 writeTotalMb=64 .*too noisy");
    }

    @Test
    void aReaderRowWithAWideSpreadIsTooNoisyToRead() {
        String text = FilesTables.render(List.of(
                row("SmallFileSetRead", "mapped", WARM, 20, 0.1, Map.of()),
                row("SmallFileSetRead", "plainStream", WARM, 10, 0.3, Map.of()))).text();
        assertThat(text).containsPattern("plainStream .*too noisy to read");
        assertThat(text).doesNotContainPattern("mapped .*too noisy to read");
    }

    private static JmhResult write(Map<String, String> setting, String force, double score, double wobble) {
        Map<String, String> params = new LinkedHashMap<>(setting);
        params.put("force", force);
        return new JmhResult("io.caskbench.bench.files.ops.SequentialWrite.write", "ss", 1, 3, null, null, params,
                new Metric(score, Double.NaN, List.of(), Map.of(), "ms/op",
                        List.of(List.of(score * (1 - wobble)), List.of(score), List.of(score * (1 + wobble)))), Map.of());
    }

    @Test
    void labelsColdOnlyWithVerifiedEvictions() {
        String text = FilesTables.render(List.of(
                row("SmallFileSetRead", "mapped", WARM, 20, 0, Map.of()),
                row("SmallFileSetRead", "mapped", COLD, 100, 0, cold(0, 5, 0)),
                row("SmallFileSetRead", "plainStream", WARM, 10, 0, Map.of()),
                row("SmallFileSetRead", "plainStream", COLD, 11, 0, cold(0, 4, 1)))).text();

        assertThat(text).containsPattern("SmallFileSetRead.mapped .*100 +20.0 .*5.00 \\(5.00-5.00\\) +verified \\(fadvise\\)");
        assertThat(text).contains("!! WARNING: some rows of this setting were not verifiably cold");
        assertThat(text).containsPattern("SmallFileSetRead.plainStream .*NOT cold: eviction not verified");
    }

    @Test
    void listsEveryOperationWithTheSpreadOfItsForks() {
        JmhResult move = new JmhResult("io.caskbench.bench.files.ops.FileMove.move", "avgt", 1, 3, null, null, Map.of(),
                new Metric(20, 1, List.of(), Map.of(), "us/op", List.of(List.of(19.0), List.of(20.0), List.of(21.0))),
                Map.of());
        String text = FilesTables.render(List.of(move)).text();
        assertThat(text).contains("== FileMove").containsPattern("move +20.0 +± 1.00 +us/op +3 +10%");
    }
}
