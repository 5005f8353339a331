package io.caskbench.bitcask.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pacer's decisions on exact figures: a fake clock, and foreground samples filed by the test
 * while the merge "copies" and while it "rests". No real time passes.
 */
class MergePacerTest {

    private static final long MAX_REST = MergePacer.MAX_REST_SLICES * MergePacer.SLICE_NANOS;

    /** Drives one pacer slice by slice, with the foreground's latency in each phase set by the test. */
    private static final class Run {
        final ForegroundLatency foreground = new ForegroundLatency();
        final List<Long> pauses = new ArrayList<>();
        long now;
        long copyNanos;
        long restNanos;
        int copySamples;
        int restSamples;
        final MergePacer pacer = new MergePacer(foreground, true, () -> now, this::pause);

        /** A run whose foreground files {@code samples} samples a slice and as many a rest, of the given latencies. */
        Run(int samples, long copyNanos, long restNanos) {
            set(samples, copyNanos, restNanos);
            pacer.start();
        }

        void set(int samples, long copyNanos, long restNanos) {
            this.copySamples = samples;
            this.restSamples = samples;
            this.copyNanos = copyNanos;
            this.restNanos = restNanos;
        }

        private void pause(long nanos) {
            pauses.add(nanos);
            for (int i = 0; i < restSamples; i++) {
                foreground.record(false, restNanos);
            }
            now += nanos;
        }

        /** One slice of copying with {@code copySamples} samples filed, then whatever rest the pacer takes. */
        void slice() {
            for (int i = 0; i < copySamples; i++) {
                foreground.record(true, copyNanos);
            }
            now += MergePacer.SLICE_NANOS;
            for (int i = 0; i < 16; i++) {
                pacer.copied();
            }
        }

        void slices(int n) {
            for (int i = 0; i < n; i++) {
                slice();
            }
        }
    }

    @Test
    void aForegroundSlowedByTheCopyingMakesTheMergeRestUpToSevenSlicesAndNoMore() {
        Run run = new Run(20, 50_000, 2_000);

        run.slices(30);

        assertThat(run.pacer.restNanos()).isEqualTo(MAX_REST);
        assertThat(run.pauses).allSatisfy(p -> assertThat(p).isBetween(1L, MAX_REST));
        assertThat(run.pauses.subList(run.pauses.size() - 10, run.pauses.size())).containsOnly(MAX_REST);
    }

    @Test
    void aForegroundTheCopyingDoesNotSlowKeepsOnlyAQuarterSliceOfRest() {
        Run run = new Run(20, 2_400, 2_000); // 1.2 times slower: within the tolerance of 1.25

        run.slices(30);

        assertThat(run.pacer.restNanos()).isEqualTo(MergePacer.SLICE_NANOS / 4);
    }

    @Test
    void theRestFollowsTheForegroundBackDownOnceTheCopyingStopsHurtingIt() {
        Run run = new Run(20, 50_000, 2_000);
        run.slices(20);
        assertThat(run.pacer.restNanos()).isEqualTo(MAX_REST);

        run.set(20, 2_000, 2_000);
        run.slices(20);

        assertThat(run.pacer.restNanos()).isEqualTo(MergePacer.SLICE_NANOS / 4);
    }

    @Test
    void withNoForegroundTheMergeCopiesFlatOut() {
        Run run = new Run(20, 50_000, 2_000);
        run.slices(20);

        run.set(0, 0, 0);
        run.slices(MergePacer.IDLE_CYCLES);
        int before = run.pauses.size();
        run.slices(20);

        assertThat(run.pacer.restNanos()).isZero();
        assertThat(run.pauses).hasSize(before);
    }

    @Test
    void aLightForegroundIsJudgedOnSamplesGatheredOverSeveralSlices() {
        Run run = new Run(2, 50_000, 2_000); // fewer samples than a decision needs in one slice

        run.slices(60);

        assertThat(run.pacer.restNanos()).isEqualTo(MAX_REST);
    }

    @Test
    void theMergeAlwaysCopiesAtLeastOneSliceInEight() {
        Run run = new Run(20, 1_000_000, 1_000);

        run.slices(100);

        long rested = run.pauses.stream().mapToLong(Long::longValue).sum();
        assertThat(rested).isEqualTo(run.pacer.restedNanos());
        // The fake clock moves a slice per slice and a rest per rest: copying is 100 slices of all that passed.
        assertThat(100 * MergePacer.SLICE_NANOS * (MergePacer.MAX_REST_SLICES + 1)).isGreaterThanOrEqualTo(run.now);
    }

    @Test
    void aPacerThatMayNotRestCopiesFlatOutHoweverSlowTheForegroundAndRestsAgainOnceAllowed() {
        ForegroundLatency foreground = new ForegroundLatency();
        long[] now = {0};
        boolean[] allowed = {false};
        List<Long> pauses = new ArrayList<>();
        MergePacer pacer = new MergePacer(foreground, true, () -> allowed[0], () -> now[0], nanos -> {
            pauses.add(nanos);
            for (int k = 0; k < 20; k++) {
                foreground.record(false, 2_000);
            }
            now[0] += nanos;
        });
        pacer.start();
        Runnable slowSlice = () -> {
            for (int k = 0; k < 20; k++) {
                foreground.record(true, 50_000); // 25 times slower than while resting
            }
            now[0] += MergePacer.SLICE_NANOS;
            for (int i = 0; i < 16; i++) {
                pacer.copied();
            }
        };
        for (int slice = 0; slice < 50; slice++) {
            slowSlice.run();
        }
        assertThat(pauses).as("writes wait for this merge: no rest").isEmpty();
        assertThat(pacer.restedNanos()).isZero();

        allowed[0] = true;
        for (int slice = 0; slice < 30; slice++) {
            slowSlice.run();
        }
        pacer.finish();
        assertThat(pacer.restNanos()).as("back under the soft limit, paced as before").isEqualTo(MAX_REST);
    }

    @Test
    void aDisabledPacerNeverRestsNorSamples() {
        ForegroundLatency foreground = new ForegroundLatency();
        long[] now = {0};
        List<Long> pauses = new ArrayList<>();
        MergePacer pacer = new MergePacer(foreground, false, () -> now[0], pauses::add);
        pacer.start();
        for (int i = 0; i < 10_000; i++) {
            assertThat(foreground.begin()).isZero();
            // Samples a slowed foreground would give: an enabled pacer would rest on them.
            for (int k = 0; k < 20; k++) {
                foreground.record(true, 50_000);
            }
            now[0] += MergePacer.SLICE_NANOS;
            pacer.copied();
        }
        pacer.finish();

        assertThat(pauses).isEmpty();
        assertThat(pacer.restNanos()).isZero();
    }
}
