package io.caskbench.bench.store.adapter;

/**
 * No store at all: what every measured operation costs before a store is called. A get hands back the
 * key it was given and a put drops it, so a benchmark row of this "store" times the harness alone:
 * the JMH loop or the 1000-thread gang, fetching the next key into its buffer, the call through
 * {@link StoreAdapter} and the missing-key check.
 *
 * <p>It is a row in every store table so that a reader can see how much of each store's figure is the
 * harness; the comparison warns when it is more than a third of the cheapest store's operation.
 */
final class HarnessStore implements InMemoryStore {

    @Override
    public void put(byte[] key, byte[] value) {
        // Nothing: the key was already fetched into a buffer the JIT cannot drop (a field of the state).
    }

    @Override
    public byte[] get(byte[] key) {
        return key;
    }

    @Override
    public void close() {
        // Nothing to release.
    }
}
