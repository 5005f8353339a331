package io.caskbench.bitcask.log;

import io.caskbench.bitcask.segment.Segment;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The written end of the log moves only past a run of finished copies, however they finish; a
 * segment's end moves with it; a failed copy counts as finished; and the writer's wait for copies
 * returns once the last one finishes.
 */
class ReservationsTest {

    private static Segment segment(long end) {
        return new Segment(1, 42, 0, Path.of("1.data"), null, null, end);
    }

    @Test
    void theWrittenEndPassesOnlyFinishedRanges() {
        Segment seg = segment(64);
        Reservations r = new Reservations(0);
        Reservations.Range a = r.add(seg, 100, 36);
        Reservations.Range b = r.add(seg, 150, 86);
        Reservations.Range c = r.add(seg, 170, 106);
        r.done(c);
        assertThat(r.written()).as("c finished before a and b").isZero();
        assertThat(seg.end()).isEqualTo(64);
        r.done(a);
        assertThat(r.written()).isEqualTo(36);
        assertThat(seg.end()).isEqualTo(100);
        r.done(b); // a copy that failed is finished too: a hole, not a wall
        assertThat(r.written()).isEqualTo(106);
        assertThat(seg.end()).isEqualTo(170);
    }

    @Test
    void rangesInTwoSegmentsMoveEachSegmentsEnd() {
        Segment old = segment(64);
        Segment next = new Segment(2, 43, 1, Path.of("2.data"), null, null, 64);
        Reservations r = new Reservations(1000);
        Reservations.Range a = r.add(old, 90, 1026);
        Reservations.Range b = r.add(next, 80, 1042);
        r.done(b);
        assertThat(next.end()).isEqualTo(64);
        r.done(a);
        assertThat(old.end()).isEqualTo(90);
        assertThat(next.end()).isEqualTo(80);
        assertThat(r.written()).isEqualTo(1042);
    }

    @Test
    void theWriterWaitsForTheLastCopy() throws Exception {
        Reservations r = new Reservations(0);
        Segment seg = segment(64);
        Reservations.Range a = r.add(seg, 100, 36);
        Reservations.Range b = r.add(seg, 120, 56);
        r.done(b);
        CountDownLatch waited = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            r.awaitCopied();
            waited.countDown();
        });
        writer.start();
        assertThat(waited.await(50, TimeUnit.MILLISECONDS)).as("a is still being copied").isFalse();
        r.done(a);
        assertThat(waited.await(30, TimeUnit.SECONDS)).isTrue();
        writer.join();
        r.awaitCopied(); // nothing pending: returns at once
        assertThat(r.written()).isEqualTo(56);
    }
}
