package io.caskbench.bench.store.adapter;

/**
 * The one interface every store benchmark talks to, so each store runs exactly the same workload code.
 *
 * <p>Implementations must be safe for concurrent use by many threads, must copy the key and value they
 * are given (the caller reuses its arrays), and must return a value array the caller may keep. None of
 * them forces data to the device per operation: each is configured to leave durability to the OS page
 * cache, as BitCask does with {@code SyncPolicy.NONE}.
 */
public interface StoreAdapter extends AutoCloseable {

    /** Stores {@code value} under {@code key}, replacing any earlier value. */
    void put(byte[] key, byte[] value);

    /** Returns a copy of the value stored under {@code key}, or {@code null} when there is none. */
    byte[] get(byte[] key);

    /**
     * Brings the store to a settled state after a bulk load: buffered writes handed to the file system,
     * background work (flushes, compactions) finished. Called outside measured time, before gets are
     * measured and before disk usage is read. It may force data to the device.
     */
    void settle();

    /**
     * Whether the store keeps its data in files that survive {@link #close()}: then it can be closed to
     * finish its background work and opened again on the same directory. False for in-memory stores.
     */
    default boolean persistent() {
        return true;
    }

    /**
     * Bytes of the in-memory key index as the store itself reports them, or -1 for stores that do not
     * report one (only BitCask does, through {@code stats().indexBytes()}).
     */
    default long indexBytes() {
        return -1;
    }

    /** Releases every resource; the store's files stay on disk until the caller deletes them. */
    @Override
    void close();
}
