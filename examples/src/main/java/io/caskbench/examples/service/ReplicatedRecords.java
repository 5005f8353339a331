package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCask;
import io.caskbench.raft.client.ReplicatedBitCask;

import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The records in a replicated store, through a {@link ReplicatedBitCask} client of replicas that run
 * elsewhere ({@code bitcask-raft}'s server): gets and puts are linearizable, a put returns once a majority
 * holds it. There is no key scan, so listings are refused. Thread-safe, as the client is.
 */
final class ReplicatedRecords implements RecordStore {

    /** The client; thread-safe. */
    private final ReplicatedBitCask client;
    /** The replicas, for log lines. */
    private final String peers;

    ReplicatedRecords(ReplicatedBitCask client, String peers) {
        this.client = Objects.requireNonNull(client, "client");
        this.peers = peers;
    }

    @Override
    public byte[] get(byte[] key) {
        return client.get(key);
    }

    @Override
    public boolean contains(byte[] key) {
        return client.get(key) != null;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        client.put(key, value);
    }

    @Override
    public boolean delete(byte[] key) {
        return client.delete(key);
    }

    /** Refused: the replicas keep no ordered index and the client offers no scan of every key. */
    @Override
    public Stream<byte[]> keys() {
        throw new UnsupportedOperationException("listing is not offered on a replicated store: it has no key scan");
    }

    /** True when the replicas name a leader for every group. */
    @Override
    public boolean ready() {
        return !client.leaders().contains(null);
    }

    @Override
    public Optional<BitCask> local() {
        return Optional.empty();
    }

    @Override
    public String describe() {
        return "replicated store " + peers;
    }

    @Override
    public void close() {
        client.close();
    }
}
