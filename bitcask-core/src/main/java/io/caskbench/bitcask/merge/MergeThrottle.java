package io.caskbench.bitcask.merge;

/**
 * Threading: the merging thread only.
 *
 * <p>Paces merge copying to a byte rate so that a merge does not starve foreground reads and writes
 * of disk bandwidth. Sleeps the merging thread whenever it runs ahead of the allowed rate.
 */
public final class MergeThrottle {

    /** Final. */
    private final long bytesPerSecond;
    /** Final. */
    private final long started = System.nanoTime();
    /** Bytes copied so far; merging thread. */
    private long bytes;

    /** A throttle at {@code bytesPerSecond}; 0 means no limit. */
    public MergeThrottle(long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    /** Accounts for {@code n} copied bytes, sleeping as long as the copy is ahead of the rate. */
    public void copied(long n) {
        if (bytesPerSecond <= 0) {
            return;
        }
        bytes += n;
        long dueNanos = (long) (bytes * 1e9 / bytesPerSecond);
        long aheadNanos = dueNanos - (System.nanoTime() - started);
        if (aheadNanos > 1_000_000) {
            try {
                Thread.sleep(aheadNanos / 1_000_000, (int) (aheadNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
