package io.caskbench.bitcask.segment;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A segment's live bytes are counted in two places: the log writer counts a put's record live as it
 * writes it, and a later put counts it dead as it publishes. A reader of the statistics must never see
 * the second without the first, which would make the live bytes negative and the dead bytes more than
 * the data.
 */
class SegmentLiveBytesTest {

    @Test
    void liveBytesNeverGoNegativeWhileRecordsAreCountedLiveThenDead() throws Exception {
        Segment seg = new Segment(1, 0, 1, Path.of("000000001.data"), null, null, 0);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong lowest = new AtomicLong();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                long live = seg.liveBytes();
                if (live < lowest.get()) {
                    lowest.set(live);
                }
            }
        });
        reader.start();
        long deadline = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 10_000; i++) {
                seg.addLive(100); // written
                seg.addDead(100); // replaced by the next put
            }
        }
        stop.set(true);
        reader.join();
        assertThat(lowest.get()).as("lowest live bytes a reader saw").isGreaterThanOrEqualTo(0);
        assertThat(seg.liveBytes()).isZero();
    }
}
