package io.caskbench.bitcask.log;

/**
 * Threading: {@link #set} from any thread (the store's debt daemon); {@link #check} by the log writer
 * under the write lock.
 *
 * <p>The log position past which puts and batches are refused: the point where the store's data would
 * cross its space bound. The write stall sets it from the figures it samples; the log writer checks each
 * put's and batch's reservation against it under the write lock, where it knows the exact position, and
 * throws {@link Reached} before it reserves anything. The refused writer waits outside the lock and tries
 * again. So the bound holds however late the sampling thread runs, and nobody sleeps under the lock.
 * Deletes and merges are never refused: both are how the store gets back under the bound.
 */
public final class WriteLimit {

    /** Log bytes past which puts and batches are refused; {@link Long#MAX_VALUE} for none. Any thread sets, the writer reads. */
    private volatile long limit = Long.MAX_VALUE;

    /** No limit until one is set. */
    public WriteLimit() {
    }

    /** Refuses writes that would reserve past {@code lsn} log bytes; {@link Long#MAX_VALUE} lifts the limit. */
    public void set(long lsn) {
        limit = lsn;
    }

    /** The limit now. */
    public long get() {
        return limit;
    }

    /** Throws {@link Reached} when a reservation ending at {@code lsn} would pass the limit. Under the write lock. */
    void check(long lsn) {
        if (lsn > limit) {
            throw Reached.INSTANCE;
        }
    }

    /**
     * A put or batch refused at the limit: nothing was reserved or written. Thrown to leave the write
     * lock at once; one shared instance without a stack trace, since the caller catches it and waits.
     */
    public static final class Reached extends RuntimeException {

        private static final long serialVersionUID = 1L;
        private static final Reached INSTANCE = new Reached();

        private Reached() {
            super("the store is at its space bound", null, false, false);
        }
    }
}
