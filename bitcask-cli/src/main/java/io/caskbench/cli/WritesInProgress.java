package io.caskbench.cli;

import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;

import java.util.List;
import java.util.Set;

/**
 * The findings of a verify that a running writer's own work explains: a record being appended to the
 * newest segment, that segment's hint from before the writer opened it (or none yet), a segment
 * being created, and the temporary files of a merge or hint write. Beside a live writer these put
 * no acknowledged record at risk; once the writer closes, they are gone.
 */
final class WritesInProgress {

    /** What a writer leaves on the newest segment and its hint while it appends. */
    private static final Set<Kind> ON_THE_NEWEST = Set.of(Kind.TORN_TAIL, Kind.HEADER_CUT_SHORT, Kind.HINT_MISSING, Kind.HINT_STALE);

    private WritesInProgress() {
    }

    /** True when a writer holds the store and {@code f} is one of the findings its work in progress leaves. */
    static boolean explains(VerifyReport report, Finding f) {
        if (!report.liveWriter()) {
            return false;
        }
        if (f.kind() == Kind.DEBRIS) {
            return true;
        }
        if (!ON_THE_NEWEST.contains(f.kind())) {
            return false;
        }
        return report.segments().stream().filter(SegmentReport::newest).anyMatch(s -> f.file().equals(s.file())
                || f.file().equals(Reports.hintOf(s.file())));
    }

    /** The findings no writer's work explains: damage, or what a crash left. */
    static List<Finding> others(VerifyReport report) {
        return report.findings().stream().filter(f -> !explains(report, f)).toList();
    }
}
