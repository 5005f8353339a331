package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCask;

import java.util.Optional;
import java.util.stream.Stream;

/** The records in an embedded {@link BitCask} store in this process. Thread-safe, as the store is. */
final class LocalRecords implements RecordStore {

    /** The store; thread-safe. */
    private final BitCask db;

    LocalRecords(BitCask db) {
        this.db = db;
    }

    @Override
    public byte[] get(byte[] key) {
        return db.get(key);
    }

    @Override
    public boolean contains(byte[] key) {
        return db.containsKey(key);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value);
    }

    @Override
    public boolean delete(byte[] key) {
        return db.delete(key);
    }

    @Override
    public Stream<byte[]> keys() {
        return db.keys();
    }

    @Override
    public boolean ready() {
        return true;
    }

    @Override
    public Optional<BitCask> local() {
        return Optional.of(db);
    }

    @Override
    public String describe() {
        return db.directory().toString();
    }

    @Override
    public void close() {
        db.close();
    }
}
