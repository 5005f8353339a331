package io.caskbench.bench.store.overwrite;

/**
 * The arithmetic of the amplification figures, kept apart so it is tested on its own.
 *
 * <p>Space amplification is the store directory's disk usage over the bytes the live data needs: keys
 * times (key + value) bytes, no overhead counted, so a store with no garbage and no metadata scores 1.
 * Write amplification is the bytes the process sent to the device over the bytes the application asked to
 * write (puts times (key + value) bytes).
 */
public final class Amplification {

    private Amplification() {
    }

    /** The bytes {@code keys} keys of {@code keyBytes} with values of {@code valueBytes} need: the denominator. */
    public static long liveBytes(long keys, int keyBytes, int valueBytes) {
        if (keys < 0 || keyBytes < 0 || valueBytes < 0) {
            throw new IllegalArgumentException("negative size: " + keys + " keys of " + keyBytes + " + " + valueBytes);
        }
        return Math.multiplyExact(keys, (long) keyBytes + valueBytes);
    }

    /** Disk bytes over live bytes; NaN when either is unknown (negative) or there is no live data. */
    public static double space(long diskBytes, long liveBytes) {
        return ratio(diskBytes, liveBytes);
    }

    /** Device bytes written over application bytes written; NaN when either is unknown or nothing was written. */
    public static double write(long deviceBytes, long applicationBytes) {
        return ratio(deviceBytes, applicationBytes);
    }

    private static double ratio(long numerator, long denominator) {
        if (numerator < 0 || denominator <= 0) {
            return Double.NaN;
        }
        return (double) numerator / denominator;
    }
}
