package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.segment.Segment;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SegmentSelectorTest {

    private static final long MIB = 1 << 20;

    /** A segment with {@code data} data bytes of which {@code live} are live; no file behind it. */
    private static Segment seg(long id, long data, long live) {
        Segment s = new Segment(id, 1, (int) id, Path.of(id + ".data"), null, null, RecordFormat.FILE_HEADER_SIZE + data);
        s.addLive(live);
        return s;
    }

    private static List<Long> ids(List<Segment> segs) {
        return segs.stream().map(Segment::id).toList();
    }

    @Test
    void takesTheFragmentedSegmentsOnly() {
        SegmentSelector sel = new SegmentSelector(0.3, 128 * MIB, MIB, 1L << 40);
        List<Segment> segs = new ArrayList<>();
        for (long id = 1; id <= 10; id++) {
            segs.add(seg(id, 64 * MIB, id == 4 ? 10 * MIB : 60 * MIB));
        }
        assertThat(ids(sel.select(segs))).containsExactly(4L);
    }

    @Test
    void takesASegmentWithEnoughDeadBytesWhateverItsShare() {
        SegmentSelector sel = new SegmentSelector(0.5, 8 * MIB, 0, 1L << 40);
        assertThat(ids(sel.select(List.of(seg(1, 64 * MIB, 60 * MIB), seg(2, 64 * MIB, 50 * MIB))))).containsExactly(2L);
    }

    @Test
    void foldsSmallSegmentsIntoAMergeThatRunsAnyway() {
        SegmentSelector sel = new SegmentSelector(0.3, 128 * MIB, 16 * MIB, 1L << 40);
        List<Segment> segs = List.of(seg(1, 64 * MIB, 64 * MIB), seg(2, 64 * MIB, 0), seg(3, MIB, MIB), seg(4, 0, 0));
        assertThat(ids(sel.select(segs))).containsExactly(2L, 3L, 4L);
    }

    @Test
    void mergesSmallSegmentsAloneOnlyWhenTwoOrMoreHoldADeadByte() {
        SegmentSelector sel = new SegmentSelector(0.9, 128 * MIB, 16 * MIB, 1L << 40);
        assertThat(sel.select(List.of(seg(1, 64 * MIB, 64 * MIB), seg(2, MIB, MIB), seg(3, 0, 0)))).isEmpty();
        assertThat(sel.select(List.of(seg(1, 64 * MIB, 64 * MIB), seg(2, MIB, MIB / 2)))).isEmpty();
        assertThat(ids(sel.select(List.of(seg(1, MIB, MIB / 2), seg(2, MIB, MIB), seg(3, 0, 0))))).containsExactly(1L, 2L, 3L);
    }

    @Test
    void staysWithinTheInputBoundMostDeadFirst() {
        SegmentSelector sel = new SegmentSelector(0.3, 128 * MIB, 0, 128 * MIB);
        List<Segment> segs = List.of(seg(1, 64 * MIB, 40 * MIB), seg(2, 64 * MIB, 10 * MIB), seg(3, 64 * MIB, 20 * MIB));
        assertThat(ids(sel.select(segs))).containsExactly(2L, 3L);
    }

    @Test
    void takesTheFirstSegmentEvenWhenItAloneExceedsTheBound() {
        SegmentSelector sel = new SegmentSelector(0.3, 128 * MIB, 0, MIB);
        assertThat(ids(sel.select(List.of(seg(1, 64 * MIB, 0), seg(2, 64 * MIB, 0))))).hasSize(1);
    }

    @Test
    void whileUrgentTakesEverySegmentWithADeadByteMostDeadFirstWithinTheBound() {
        // A uniform overwrite: every segment a little dead, none near the thresholds.
        List<Segment> segs = List.of(seg(1, 64 * MIB, 56 * MIB), seg(2, 64 * MIB, 60 * MIB), seg(3, 64 * MIB, 64 * MIB),
                seg(4, 64 * MIB, 50 * MIB));
        boolean[] urgent = {false};
        SegmentSelector sel = new SegmentSelector(0.3, 128 * MIB, 0, 128 * MIB, () -> urgent[0]);
        assertThat(sel.select(segs)).as("not urgent: nothing reaches the thresholds").isEmpty();

        urgent[0] = true;
        assertThat(ids(sel.select(segs))).as("the two most dead, within 128 MiB; never one without a dead byte")
                .containsExactly(1L, 4L);
    }

    @Test
    void allTakesEverySegmentOnceOneHoldsADeadByte() {
        assertThat(SegmentSelector.all(List.of(seg(2, MIB, MIB), seg(1, MIB, MIB)))).isEmpty();
        assertThat(ids(SegmentSelector.all(List.of(seg(2, MIB, MIB), seg(1, MIB, MIB - 1))))).containsExactly(1L, 2L);
    }
}
