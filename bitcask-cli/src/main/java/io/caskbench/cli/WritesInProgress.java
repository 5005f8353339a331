package io.caskbench.cli;

import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.Finding;
import io.caskbench.bitcask.VerifyReport.Kind;
import io.caskbench.bitcask.VerifyReport.SegmentReport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The findings of a verify that a running writer's own work explains: a record being appended to the
 * newest segment, that segment's hint from before the writer opened it (or none yet), a segment
 * being created, and the temporary files of a merge or hint write. Beside a live writer these put
 * no acknowledged record at risk; once the writer closes, they are gone.
 *
 * <p>A failing tail of the newest segment is only an append in progress if it moves: {@link #recheck}
 * reads it again after a short wait, and a tail whose bytes and file length stayed the same is damage
 * (an acknowledged last record that went bad looks exactly like a torn append, but nobody is finishing it).
 * Instances are immutable.
 */
final class WritesInProgress {

    /** How long a failing tail must stand still to count as damage: far longer than one append takes. */
    static final Duration RECHECK_WAIT = Duration.ofMillis(200);

    /** What a writer leaves on the newest segment and its hint while it appends. */
    private static final Set<Kind> ON_THE_NEWEST = Set.of(Kind.TORN_TAIL, Kind.HEADER_CUT_SHORT, Kind.HINT_MISSING, Kind.HINT_STALE);

    /** What an append leaves at the end of the newest segment, which a re-read must see move. */
    private static final Set<Kind> APPENDS = Set.of(Kind.TORN_TAIL, Kind.HEADER_CUT_SHORT);

    /** Bytes of a tail compared between the two reads; an append in progress changes its first ones. */
    private static final int COMPARED_BYTES = 1 << 20;

    private final VerifyReport report;
    /** Tails on the newest segment that stood still over the recheck's wait. */
    private final Set<Finding> stoodStill;

    private WritesInProgress(VerifyReport report, Set<Finding> stoodStill) {
        this.report = report;
        this.stoodStill = Set.copyOf(stoodStill);
    }

    /**
     * The findings of {@code report} a writer's work explains, with each failing tail of the newest
     * segment read twice, {@code wait} apart: only one that changed (or vanished) is an append in progress.
     */
    static WritesInProgress recheck(VerifyReport report, Duration wait) throws IOException {
        return recheck(report, () -> Thread.sleep(wait.toMillis()));
    }

    /** {@link #recheck(VerifyReport, Duration)} with what passes between the two reads; for tests. */
    static WritesInProgress recheck(VerifyReport report, Meanwhile meanwhile) throws IOException {
        List<Finding> tails = report.findings().stream()
                .filter(f -> APPENDS.contains(f.kind()) && byKind(report, f)).toList();
        if (tails.isEmpty()) {
            return new WritesInProgress(report, Set.of());
        }
        List<Tail> before = new ArrayList<>();
        for (Finding f : tails) {
            before.add(Tail.read(f));
        }
        try {
            meanwhile.pass();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while re-reading the newest segment's tail", e);
        }
        Set<Finding> still = new HashSet<>();
        for (int i = 0; i < tails.size(); i++) {
            if (before.get(i).sameAs(Tail.read(tails.get(i)))) {
                still.add(tails.get(i));
            }
        }
        return new WritesInProgress(report, still);
    }

    /** The findings of {@code report} a writer's work explains by their kind and file alone, with no re-read. */
    static WritesInProgress byKindAlone(VerifyReport report) {
        return new WritesInProgress(report, Set.of());
    }

    /** True when a writer holds the store and {@code f} is one of the findings its work in progress leaves. */
    boolean explains(Finding f) {
        return byKind(report, f) && !stoodStill.contains(f);
    }

    /** The findings no writer's work explains: damage, or what a crash left. */
    List<Finding> others() {
        return report.findings().stream().filter(f -> !explains(f)).toList();
    }

    private static boolean byKind(VerifyReport report, Finding f) {
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

    /** What happens between the two reads of the tails: a wait, or in a test a writer's append. */
    @FunctionalInterface
    interface Meanwhile {
        /** Lets the time between the reads pass. */
        void pass() throws IOException, InterruptedException;
    }

    /** A file's length and the first bytes of a tail finding, or a missing file. */
    private record Tail(long length, byte[] bytes) {

        static Tail read(Finding f) throws IOException {
            try (FileChannel ch = FileChannel.open(f.file(), StandardOpenOption.READ)) {
                long length = ch.size();
                long from = Math.max(0, f.offset());
                ByteBuffer b = ByteBuffer.allocate((int) Math.max(0, Math.min(COMPARED_BYTES, length - from)));
                int n = 0;
                while (b.hasRemaining() && n >= 0) {
                    n = ch.read(b, from + b.position());
                }
                return new Tail(length, Arrays.copyOf(b.array(), b.position()));
            } catch (NoSuchFileException e) {
                return new Tail(-1, new byte[0]);
            }
        }

        boolean sameAs(Tail later) {
            return length >= 0 && length == later.length && Arrays.equals(bytes, later.bytes);
        }
    }
}
