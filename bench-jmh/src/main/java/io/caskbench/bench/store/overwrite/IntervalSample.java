package io.caskbench.bench.store.overwrite;

import java.util.Locale;

/**
 * What one interval of the sustained-overwrite run measured: one line of the time series.
 *
 * @param second the intervals' lengths so far, this one's included: the run's time at its end, the short
 *     pauses between intervals (a {@code du}, the driver's start) left out
 * @param puts puts completed in the interval
 * @param gets gets completed in the interval
 * @param seconds the interval's length in seconds, as measured
 * @param putP50 put latency median, microseconds (NaN when none)
 * @param putP99 put latency 99th percentile, microseconds
 * @param getP99 get latency 99th percentile, microseconds
 * @param diskBytes the store directory's disk usage at the interval's end
 * @param liveBytes keys times (key + value) bytes
 * @param deviceBytes bytes this process wrote to the device since the run started
 * @param appBytes bytes the application put since the run started
 * @param compactions merges or compactions seen since the run started
 * @param compactionMillis time spent in them since the run started, -1 when the store does not report it
 * @param longestCompactionMillis the longest single one since the store opened, -1 when none ran or the store
 *     does not report it
 * @param largestCompactionBytes the input bytes of the largest single one since the store opened, -1 when none
 *     ran or the store does not report it
 */
public record IntervalSample(double second, long puts, long gets, double seconds, double putP50, double putP99,
        double getP99, long diskBytes, long liveBytes, long deviceBytes, long appBytes, long compactions,
        long compactionMillis, long longestCompactionMillis, long largestCompactionBytes) {

    /** The CSV header matching {@link #csv()}. */
    public static final String HEADER = "second,opsPerSecond,putsPerSecond,putP50Us,putP99Us,getP99Us,diskBytes,"
            + "liveBytes,spaceAmp,deviceBytes,appBytes,writeAmp,compactions,compactionMillis,"
            + "longestCompactionMillis,largestCompactionBytes";

    /** Operations per second in the interval. */
    public double opsPerSecond() {
        return (puts + gets) / seconds;
    }

    /** Puts per second in the interval. */
    public double putsPerSecond() {
        return puts / seconds;
    }

    /** Disk bytes over live bytes at the interval's end. */
    public double spaceAmp() {
        return Amplification.space(diskBytes, liveBytes);
    }

    /** Device bytes over application bytes, cumulative since the run started. */
    public double writeAmp() {
        return Amplification.write(deviceBytes, appBytes);
    }

    /** One CSV line, no line break; numbers in the root locale. */
    public String csv() {
        return String.format(Locale.ROOT, "%.3f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%d,%.4f,%d,%d,%.4f,%d,%d,%d,%d", second,
                opsPerSecond(), putsPerSecond(), putP50, putP99, getP99, diskBytes, liveBytes, spaceAmp(),
                deviceBytes, appBytes, writeAmp(), compactions, compactionMillis, longestCompactionMillis,
                largestCompactionBytes);
    }
}
