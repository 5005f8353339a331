package io.caskbench.bench.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.ResultRow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The files comparison names the winner per setting and never calls an unverified row cold. */
class FilesSummaryTest {

    private static final Map<String, String> WARM = Map.of("cache", "warm", "fileCount", "800");
    private static final Map<String, String> COLD = Map.of("cache", "cold", "fileCount", "800");
    private static final Map<String, Double> NOT_EVICTED = cold(0, 0, 0);

    private static ResultRow row(String cls, String method, Map<String, String> params, double score,
            Map<String, Double> secondary) {
        return new ResultRow(cls, method, params, 1, score, Double.NaN, "ms/op", secondary);
    }

    private static Map<String, Double> cold(double dropCaches, double fadvise, double unverified) {
        return Map.of("coldDropCaches", dropCaches, "coldFadvise", fadvise, "coldUnverified", unverified);
    }

    @Test
    void saysWhetherMmapWinsOrLosesPerSetting() {
        Map<String, String> big = Map.of("chunk", "256", "randomFileMb", "256");
        String text = FilesSummary.render(List.of(
                row("SmallFileSetRead", "mapped", WARM, 24, NOT_EVICTED),
                row("SmallFileSetRead", "channelDirect", WARM, 6, NOT_EVICTED),
                row("RandomChunkRead", "mapped", big, 150, Map.of()),
                row("RandomChunkRead", "channelPositional", big, 900, Map.of())));

        assertThat(text).contains("mmap loses: 4.0x slower than the best other reader (channelDirect)");
        assertThat(text).contains("mmap wins: 6.0x faster than the best other reader (channelPositional)");
    }

    @Test
    void labelsColdOnlyWithVerifiedEvictions() {
        String text = FilesSummary.render(List.of(
                row("SmallFileSetRead", "mapped", WARM, 20, NOT_EVICTED),
                row("SmallFileSetRead", "mapped", COLD, 100, cold(0, 5, 0)),
                row("SmallFileSetRead", "plainStream", WARM, 10, NOT_EVICTED),
                row("SmallFileSetRead", "plainStream", COLD, 11, cold(0, 4, 1))));

        assertThat(text).containsPattern("SmallFileSetRead.mapped .*100 +20.0 .*5.00 +verified \\(fadvise\\)");
        assertThat(text).contains("!! some rows of this setting were not verifiably cold");
        assertThat(text).containsPattern("SmallFileSetRead.plainStream .*NOT cold: eviction not verified");
    }
}
