package io.caskbench.bench.replicated;

/**
 * The store a replicated benchmark calls: the single-node store or a client of replicas. Thread-safe: the
 * benchmark's threads call it at once.
 */
interface Target extends AutoCloseable {

    /** Stores {@code value} under {@code key}; returns once the store acknowledged it. */
    void put(byte[] key, byte[] value);

    /** The value of {@code key}, or null; a replicated target reads linearizably through the leader. */
    byte[] get(byte[] key);

    /** Stores every key with {@code value} before measuring, in as few calls as the target allows. */
    void fill(byte[][] keys, byte[] value);

    /** Stops what the target started and closes its stores. */
    @Override
    void close();
}
