package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCask;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the service keeps its records, as bytes under byte keys: the embedded store ({@link LocalRecords}) or
 * a client of a replicated one ({@link ReplicatedRecords}). Thread-safe.
 */
interface RecordStore extends AutoCloseable {

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key);

    /** True when {@code key} has a value. */
    boolean contains(byte[] key);

    /** Stores {@code value} under {@code key}. */
    void put(byte[] key, byte[] value);

    /** Deletes {@code key}; true when it had a value. */
    boolean delete(byte[] key);

    /**
     * Every key, for listings.
     *
     * @throws UnsupportedOperationException when the store cannot scan its keys (a replicated one)
     */
    Stream<byte[]> keys();

    /** True when calls can succeed now: always for the embedded store, while a leader is seen for a replicated one. */
    boolean ready();

    /** The embedded store, for its statistics, merges and meters; empty for a replicated one. */
    Optional<BitCask> local();

    /** What the store is, for log lines: its directory, or the replicas it talks to. */
    String describe();

    /** Closes the store (the embedded one forces its writes) or the client; idempotent. */
    @Override
    void close();
}
