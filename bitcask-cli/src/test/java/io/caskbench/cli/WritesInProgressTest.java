package io.caskbench.cli;

import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.HintState;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which findings a live writer's work explains, on reports made by hand. */
class WritesInProgressTest {

    private static final Path DIR = Path.of("/srv/data");
    private static final Path OLD = DIR.resolve("000000001.data");
    private static final Path NEWEST = DIR.resolve("000000002.data");
    private static final List<SegmentReport> SEGMENTS = List.of(
            new SegmentReport(1, OLD, 1000, 2, false, 10, 1000, HintState.USABLE, 1000),
            new SegmentReport(2, NEWEST, 64 << 20, 2, true, 5, 500, HintState.USABLE, 400));

    private static Finding finding(Path file, Kind kind) {
        return new Finding(file, kind, -1, -1, "made up");
    }

    private static VerifyReport report(boolean liveWriter, Finding... findings) {
        return new VerifyReport(DIR, VerifyReport.Depth.RECORDS, 2, liveWriter, SEGMENTS, List.of(findings), 0);
    }

    @Test
    void theNewestSegmentsAppendsHintAndTemporaryFilesAreAWritersWork() {
        Finding stale = finding(DIR.resolve("000000002.hint"), Kind.HINT_STALE);
        Finding missing = finding(DIR.resolve("000000002.hint"), Kind.HINT_MISSING);
        Finding torn = finding(NEWEST, Kind.TORN_TAIL);
        Finding creating = finding(NEWEST, Kind.HEADER_CUT_SHORT);
        Finding debris = finding(DIR.resolve("000000003.data.tmp"), Kind.DEBRIS);
        VerifyReport r = report(true, stale, missing, torn, creating, debris);

        assertThat(r.findings()).allMatch(f -> WritesInProgress.byKindAlone(r).explains(f));
        assertThat(WritesInProgress.byKindAlone(r).others()).isEmpty();
        assertThat(Reports.healthy(r, WritesInProgress.byKindAlone(r))).isTrue();
        assertThat(Reports.healthy(r, null)).isFalse();
    }

    @Test
    void damageAndOlderSegmentsAreNever() {
        Finding corrupt = finding(NEWEST, Kind.CORRUPT_RECORDS);
        Finding mismatch = finding(DIR.resolve("000000002.hint"), Kind.HINT_MISMATCH);
        Finding olderTorn = finding(OLD, Kind.TORN_TAIL);
        Finding olderStale = finding(DIR.resolve("000000001.hint"), Kind.HINT_STALE);
        VerifyReport r = report(true, corrupt, mismatch, olderTorn, olderStale);

        assertThat(WritesInProgress.byKindAlone(r).others()).containsExactly(corrupt, mismatch, olderTorn, olderStale);
        assertThat(Reports.healthy(r, WritesInProgress.byKindAlone(r))).isFalse();
    }

    @Test
    void withoutAWriterNothingIsInProgress() {
        Finding stale = finding(DIR.resolve("000000002.hint"), Kind.HINT_STALE);
        VerifyReport r = report(false, stale, finding(DIR.resolve("000000003.data.tmp"), Kind.DEBRIS));

        assertThat(WritesInProgress.byKindAlone(r).others()).isEqualTo(r.findings());
        assertThat(Reports.healthy(r, WritesInProgress.byKindAlone(r))).isFalse();
    }

    @Test
    void aFailingTailThatStandsStillIsDamageAndOneThatMovesIsAnAppend(@TempDir Path dir) throws IOException {
        Path newest = dir.resolve("000000002.data");
        Files.write(newest, new byte[600]);
        Finding torn = new Finding(newest, Kind.TORN_TAIL, 500, 100, "made up");
        VerifyReport r = new VerifyReport(dir, VerifyReport.Depth.RECORDS, 2, true,
                List.of(new SegmentReport(2, newest, 600, 2, true, 5, 500, HintState.USABLE, 400)), List.of(torn), 0);

        WritesInProgress still = WritesInProgress.recheck(r, () -> { });
        assertThat(still.explains(torn)).isFalse();
        assertThat(still.others()).containsExactly(torn);
        assertThat(Reports.healthy(r, still)).isFalse();

        WritesInProgress appended = WritesInProgress.recheck(r,
                () -> Files.write(newest, new byte[] {1, 2, 3}, StandardOpenOption.APPEND));
        assertThat(appended.explains(torn)).isTrue();
        assertThat(Reports.healthy(r, appended)).isTrue();

        WritesInProgress completed = WritesInProgress.recheck(r, () -> {
            try (RandomAccessFile f = new RandomAccessFile(newest.toFile(), "rw")) {
                f.seek(550);
                f.write(7);
            }
        });
        assertThat(completed.explains(torn)).as("bytes rewritten in place").isTrue();
    }
}
