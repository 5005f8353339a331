package io.caskbench.bitcask;

/**
 * Threading: called one call at a time, in order; {@code phase} on the caller's thread, and
 * {@code advance} also on the threads verify reads files with, so what an implementation keeps
 * must be safe to touch from whichever thread calls next.
 *
 * <p>Hears how far a long operation on a store directory ({@link BitCask#verify}, {@link BitCask#repair})
 * has come, so that a tool can show a progress bar.
 */
public interface ProgressListener {

    /** A listener that ignores everything. */
    ProgressListener NONE = new ProgressListener() {
        @Override
        public void phase(String name, long totalBytes) {
            // nothing to show
        }

        @Override
        public void advance(long bytes) {
            // nothing to show
        }
    };

    /**
     * A new phase begins; the previous one, if any, is over.
     *
     * @param name       what the phase does, such as {@code "verify"} or {@code "backup"}
     * @param totalBytes the bytes it will read or write, or -1 when unknown
     */
    void phase(String name, long totalBytes);

    /** {@code bytes} more of the current phase are done. */
    void advance(long bytes);
}
