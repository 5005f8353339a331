package io.caskbench.bitcask;

/**
 * Threading: an enum, safe everywhere.
 *
 * <p>When written records are forced to the storage device. Whatever the policy, a record survives
 * a crash of the process ({@code kill -9}) once {@code put} or {@code delete} has returned: it is
 * in the operating system's page cache by then. The policy only decides what survives a crash of
 * the machine or a power loss.
 */
public enum SyncPolicy {
    /** The operating system writes pages back when it likes. Fastest. The default. */
    NONE,
    /**
     * Every write is forced before the call returns. Concurrent writers share one force
     * (group commit), so throughput grows with the number of writers.
     */
    ALWAYS,
    /** A background thread forces written records every {@link BitCaskOptions#syncInterval()}. */
    INTERVAL
}
