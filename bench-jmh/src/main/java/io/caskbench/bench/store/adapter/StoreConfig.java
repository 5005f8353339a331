package io.caskbench.bench.store.adapter;

/**
 * Sizing hints a store needs when it is created. Stores that preallocate (Chronicle Map, LMDB's map size)
 * size themselves from these; the others use them to pre-size caches or ignore them.
 *
 * @param expectedKeys number of distinct keys the workload will hold
 * @param keySize key length in bytes (the average when {@code fixedKeySize} is false)
 * @param fixedKeySize true when every key has exactly {@code keySize} bytes
 * @param valueSize value length in bytes; every value of a workload has this length
 * @param maxThreads the most threads that may use the store at once (LMDB reader slots)
 */
public record StoreConfig(long expectedKeys, int keySize, boolean fixedKeySize, int valueSize, int maxThreads) {

    /** Checks the hints are usable. */
    public StoreConfig {
        if (expectedKeys < 1 || keySize < 1 || valueSize < 0 || maxThreads < 1) {
            throw new IllegalArgumentException("bad store config: " + expectedKeys + " keys, key " + keySize
                    + " B, value " + valueSize + " B, " + maxThreads + " threads");
        }
    }

    /** Bytes of key and value data the workload holds, without any store overhead. */
    public long payloadBytes() {
        return expectedKeys * (keySize + (long) valueSize);
    }
}
