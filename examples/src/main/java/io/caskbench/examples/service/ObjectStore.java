package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.Codec;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.ProtostuffCodec;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.client.ReplicatedBitCask;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Object metadata kept in a BitCask store, one record per object, under the key
 * {@code bucket + "/" + objectKey}. Bucket names cannot contain {@code /}, so the first slash
 * separates the two and the objects of a bucket share a key prefix. The store is embedded
 * ({@link #open}) or replicated by Raft and reached through its client ({@link #replicated}); a
 * replicated store has no listing, statistics or merge of its own. Thread-safe.
 */
public final class ObjectStore implements AutoCloseable {

    /** Largest object key, in UTF-8 bytes; with the longest bucket name it stays within the store's key limit. */
    public static final int MAX_OBJECT_KEY_BYTES = 900;

    /** The records; thread-safe. */
    private final RecordStore records;
    /** How a record's bytes are made; stateless. */
    private final Codec<ObjectMeta> codec = ProtostuffCodec.of(ObjectMeta.class);

    private ObjectStore(RecordStore records) {
        this.records = records;
    }

    /** Opens (creating if needed) the store in {@code dir}. */
    public static ObjectStore open(Path dir, BitCaskOptions options) {
        return new ObjectStore(new LocalRecords(BitCask.open(dir, options)));
    }

    /**
     * A store replicated by the running replicas {@code peers} ({@code n1=host:port,...}, as their
     * servers were started with), keys spread over {@code groups} Raft groups; each call gives up
     * after {@code timeout}.
     */
    public static ObjectStore replicated(String peers, int groups, Duration timeout) {
        return new ObjectStore(new ReplicatedRecords(
                ReplicatedBitCask.connect(Cluster.parse(peers, groups), timeout), peers));
    }

    /** The metadata of {@code bucket/key}, or null when there is none. */
    public ObjectMeta get(String bucket, String key) {
        return decode(records.get(utf8(storeKey(bucket, key))));
    }

    /**
     * Stores {@code meta} under its bucket and key, replacing any previous version.
     *
     * @return true when no object was there before; informational only, as two concurrent
     *         writers of the same key may both see true
     */
    public boolean put(ObjectMeta meta) {
        byte[] k = utf8(storeKey(meta.bucket(), meta.key()));
        boolean created = !records.contains(k);
        records.put(k, codec.encode(meta));
        return created;
    }

    /** Deletes {@code bucket/key}; true when it existed. */
    public boolean delete(String bucket, String key) {
        return records.delete(utf8(storeKey(bucket, key)));
    }

    /**
     * The objects of {@code bucket} whose key starts with {@code prefix}, in key order, at most
     * {@code limit} of them. BitCask keeps no ordered index, so this scans every key in the
     * store: fine for thousands of objects, a job for a real index beyond millions.
     *
     * @throws UnsupportedOperationException on a replicated store, which has no key scan
     */
    public Listing list(String bucket, String prefix, int limit) {
        return list(bucket, prefix, "", limit);
    }

    /**
     * Like {@link #list(String, String, int)}, but only keys after {@code startAfter} (in key
     * order, exclusive; empty for none), so a listing can go on where the last page ended.
     */
    public Listing list(String bucket, String prefix, String startAfter, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit < 1: " + limit);
        }
        byte[] wanted = storeKey(bucket, prefix).getBytes(StandardCharsets.UTF_8);
        String after = storeKey(bucket, Objects.requireNonNull(startAfter, "startAfter"));
        List<String> keys = records.keys()
                .filter(k -> startsWith(k, wanted))
                .map(k -> new String(k, StandardCharsets.UTF_8))
                .filter(k -> startAfter.isEmpty() || k.compareTo(after) > 0)
                .sorted()
                .limit(limit + 1L)
                .toList();
        List<ObjectMeta> objects = new ArrayList<>(Math.min(keys.size(), limit));
        for (String k : keys.subList(0, Math.min(keys.size(), limit))) {
            ObjectMeta meta = decode(records.get(utf8(k)));
            if (meta != null) { // deleted since the key snapshot was taken
                objects.add(meta);
            }
        }
        boolean truncated = keys.size() > limit;
        // The last key of the page, also when its object was deleted meanwhile, so the next page goes on after it.
        String last = truncated ? keys.get(limit - 1).substring(bucket.length() + 1) : null;
        return new Listing(objects, truncated, last);
    }

    /**
     * Merges the store's segments now, reclaiming the space of overwritten and deleted records.
     *
     * @throws UnsupportedOperationException on a replicated store: each replica merges its own
     * @see BitCask#merge()
     */
    public MergeResult merge() {
        return embedded().merge();
    }

    /**
     * Size and fragmentation of the underlying store.
     *
     * @throws UnsupportedOperationException on a replicated store
     */
    public BitCaskStats stats() {
        return embedded().stats();
    }

    /**
     * The options the underlying store was opened with.
     *
     * @throws UnsupportedOperationException on a replicated store
     */
    public BitCaskOptions options() {
        return embedded().options();
    }

    /**
     * The store's directory.
     *
     * @throws UnsupportedOperationException on a replicated store
     */
    public Path directory() {
        return embedded().directory();
    }

    /** The embedded store, for its meters; empty when the store is replicated. */
    Optional<BitCask> local() {
        return records.local();
    }

    /** True when calls can succeed now: always when embedded, while a leader is seen when replicated. */
    public boolean ready() {
        return records.ready();
    }

    /** What the store is, for log lines: its directory, or the replicas it talks to. */
    public String describe() {
        return records.describe();
    }

    /** Closes the store, forcing everything written to disk, or the replicated store's client. */
    @Override
    public void close() {
        records.close();
    }

    /** The store key of an object. */
    static String storeKey(String bucket, String key) {
        return Objects.requireNonNull(bucket, "bucket") + "/" + Objects.requireNonNull(key, "key");
    }

    private BitCask embedded() {
        return records.local().orElseThrow(() -> new UnsupportedOperationException(
                "not offered on a replicated store: each replica keeps its own local store"));
    }

    private ObjectMeta decode(byte[] bytes) {
        return bytes == null ? null : codec.decode(bytes);
    }

    private static byte[] utf8(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    /**
     * One page of a listing.
     *
     * @param objects   the objects, in key order
     * @param truncated true when more objects matched than the limit allowed
     * @param lastKey   the object key the page ended at when truncated, else null: the next page starts after it
     */
    public record Listing(List<ObjectMeta> objects, boolean truncated, String lastKey) {
        /** Freezes the list. */
        public Listing {
            objects = List.copyOf(objects);
        }
    }
}
