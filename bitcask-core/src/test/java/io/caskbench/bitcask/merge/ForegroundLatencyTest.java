package io.caskbench.bitcask.merge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How samples are filed: by the phase an operation ran in from start to end. Only the order of events
 * matters here; the sleeps just make sure the clock moves between them.
 */
class ForegroundLatencyTest {

    /** Starts a sampled operation: {@link ForegroundLatency#begin} times one call in 32, chosen at random. */
    private static long sampledBegin(ForegroundLatency f) {
        long begun;
        do {
            begun = f.begin();
        } while (begun == 0);
        return begun;
    }

    @Test
    void anOperationThatSpansASwitchIsFiledUnderNeitherPhase() throws Exception {
        ForegroundLatency f = new ForegroundLatency();
        f.watch(true);
        long intoRest = sampledBegin(f);
        Thread.sleep(2);
        f.phase(false);
        Thread.sleep(2);
        f.end(intoRest);
        // A long operation that a rest begins in the middle of says nothing about either phase: filed under
        // copying, it made copying look slower than it is, and the pacer rested for nothing.
        assertThat(f.peek().copyCount()).isZero();
        assertThat(f.peek().restCount()).isZero();

        long inRest = sampledBegin(f);
        Thread.sleep(1);
        f.end(inRest);
        assertThat(f.peek().restCount()).isOne();
        assertThat(f.peek().restMean()).isGreaterThanOrEqualTo(1_000_000);

        long intoCopy = sampledBegin(f);
        Thread.sleep(2);
        f.phase(true);
        f.end(intoCopy);
        long inCopy = sampledBegin(f);
        f.end(inCopy);
        assertThat(f.peek().copyCount()).isOne();
        assertThat(f.peek().restCount()).isOne();
    }

    @Test
    void nothingIsSampledWhileNoMergeIsWatchedAndAStartClearsTheLastMergesSamples() {
        ForegroundLatency f = new ForegroundLatency();
        for (int i = 0; i < 1000; i++) {
            assertThat(f.begin()).isZero();
        }
        f.watch(true);
        f.record(true, 5_000);
        f.record(false, 1_000);
        assertThat(f.peek()).isEqualTo(new ForegroundLatency.Samples(1, 5_000, 1, 1_000));
        f.watch(false);
        for (int i = 0; i < 1000; i++) {
            assertThat(f.begin()).isZero();
        }
        f.watch(true);
        assertThat(f.peek()).isEqualTo(new ForegroundLatency.Samples(0, 0, 0, 0));
    }

    @Test
    void aSampleCountsItsTimeAndItselfTogether() {
        ForegroundLatency f = new ForegroundLatency();
        f.watch(true);
        f.record(true, 3_000);
        f.record(true, 1_000);
        f.clear();
        f.record(true, 2_000);
        // A clear is one step for a phase's time and count, so no sample's time outlives its count.
        assertThat(f.peek()).isEqualTo(new ForegroundLatency.Samples(1, 2_000, 0, 0));
        // One absurd sample (a thread descheduled for minutes) is capped, so it cannot wrap the tally.
        f.record(false, Long.MAX_VALUE / 2);
        assertThat(f.peek().restMean()).isEqualTo((double) ForegroundLatency.MAX_SAMPLE_NANOS);
    }
}
