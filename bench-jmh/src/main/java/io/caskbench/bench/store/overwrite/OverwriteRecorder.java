package io.caskbench.bench.store.overwrite;

import io.caskbench.bench.store.overwrite.IntervalLoad.Interval;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * Runs the sustained-overwrite load interval by interval and records each interval: its throughput and
 * latencies, then, between intervals, the store's disk usage, the device bytes written so far and the
 * store's merges or compactions (their count and time so far, the longest and the largest single one).
 * The disk usage is read with the load paused (a {@code du} of the store folder), so it is not in any
 * interval's time. Used by one thread.
 */
public final class OverwriteRecorder {

    private final OverwriteTarget target;
    private final IntervalLoad load;
    private final long liveBytes;
    private final int recordBytes;
    private final LongSupplier deviceBytes;
    /** Whole-run histograms; measuring thread only. */
    private final Histogram puts = new Histogram(3);
    private final Histogram gets = new Histogram(3);
    /** Operations never started (open loop), censored into the histograms; measuring thread only. */
    private long unfinished;
    private long sink;

    /**
     * A recorder.
     *
     * @param liveBytes the denominator of space amplification
     * @param recordBytes key plus value bytes of one put: the application's bytes
     * @param deviceBytes bytes written to the device so far ({@link ProcIo#writeBytes()}), -1 when unknown
     */
    public OverwriteRecorder(OverwriteTarget target, IntervalLoad load, long liveBytes, int recordBytes,
            LongSupplier deviceBytes) {
        this.target = target;
        this.load = load;
        this.liveBytes = liveBytes;
        this.recordBytes = recordBytes;
        this.deviceBytes = deviceBytes;
    }

    /** Runs {@code count} intervals of {@code length}, writing each to {@code out}, and returns them. */
    public List<IntervalSample> run(int count, Duration length, TimeSeriesWriter out) {
        List<IntervalSample> samples = new ArrayList<>();
        long device0 = deviceBytes.getAsLong();
        long compactions0 = target.compactions();
        long millis0 = target.compactionMillis();
        long appBytes = 0;
        double elapsed = 0;
        for (int i = 0; i < count; i++) {
            Interval iv = load.run(length);
            puts.add(iv.puts());
            gets.add(iv.gets());
            sink += iv.sink();
            unfinished += iv.censoredPuts() + iv.censoredGets();
            elapsed += iv.seconds();
            appBytes += iv.putsDone() * recordBytes;
            long device = deviceBytes.getAsLong();
            long millis = target.compactionMillis();
            IntervalSample s = new IntervalSample(elapsed, iv.putsDone(), iv.getsDone(),
                    iv.seconds(), micros(iv.puts(), 50), micros(iv.puts(), 99), micros(iv.gets(), 99),
                    DiskUsage.of(target.directory()), liveBytes, device < 0 || device0 < 0 ? -1 : device - device0,
                    appBytes, target.compactions() - compactions0, millis < 0 ? -1 : millis - millis0,
                    target.longestCompactionMillis(), target.largestCompactionBytes());
            out.write(s);
            samples.add(s);
        }
        return samples;
    }

    /** Every put's latency over the run so far, nanoseconds; a copy. */
    public Histogram puts() {
        return puts.copy();
    }

    /** Every get's latency over the run so far, nanoseconds; a copy. */
    public Histogram gets() {
        return gets.copy();
    }

    /** Operations due that were never started over the run so far (open loop), each censored into a histogram. */
    public long unfinished() {
        return unfinished;
    }

    /** The sum of what the operations returned; hand it to a {@code Blackhole}. */
    public long sink() {
        return sink;
    }

    private static double micros(Histogram ns, double percentile) {
        return ns.getTotalCount() == 0 ? Double.NaN : ns.getValueAtPercentile(percentile) / 1e3;
    }
}
