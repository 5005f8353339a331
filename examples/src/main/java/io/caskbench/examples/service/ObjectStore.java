package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.ProtostuffCodec;
import io.caskbench.bitcask.TypedBitCask;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Object metadata kept in a BitCask store, one record per object, under the key
 * {@code bucket + "/" + objectKey}. Bucket names cannot contain {@code /}, so the first slash
 * separates the two and the objects of a bucket share a key prefix. Thread-safe.
 */
public final class ObjectStore implements AutoCloseable {

    /** Largest object key, in UTF-8 bytes; with the longest bucket name it stays within the store's key limit. */
    public static final int MAX_OBJECT_KEY_BYTES = 900;

    private final BitCask db;
    private final TypedBitCask<ObjectMeta> metas;

    private ObjectStore(BitCask db) {
        this.db = db;
        this.metas = db.typed(ProtostuffCodec.of(ObjectMeta.class));
    }

    /** Opens (creating if needed) the store in {@code dir}. */
    public static ObjectStore open(Path dir, BitCaskOptions options) {
        return new ObjectStore(BitCask.open(dir, options));
    }

    /** The metadata of {@code bucket/key}, or null when there is none. */
    public ObjectMeta get(String bucket, String key) {
        return metas.get(storeKey(bucket, key));
    }

    /**
     * Stores {@code meta} under its bucket and key, replacing any previous version.
     *
     * @return true when no object was there before; informational only, as two concurrent
     *         writers of the same key may both see true
     */
    public boolean put(ObjectMeta meta) {
        String k = storeKey(meta.bucket(), meta.key());
        boolean created = !metas.containsKey(k);
        metas.put(k, meta);
        return created;
    }

    /** Deletes {@code bucket/key}; true when it existed. */
    public boolean delete(String bucket, String key) {
        return metas.delete(storeKey(bucket, key));
    }

    /**
     * The objects of {@code bucket} whose key starts with {@code prefix}, in key order, at most
     * {@code limit} of them. BitCask keeps no ordered index, so this scans every key in the
     * store: fine for thousands of objects, a job for a real index beyond millions.
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
        List<String> keys = db.keys()
                .filter(k -> startsWith(k, wanted))
                .map(k -> new String(k, StandardCharsets.UTF_8))
                .filter(k -> startAfter.isEmpty() || k.compareTo(after) > 0)
                .sorted()
                .limit(limit + 1L)
                .toList();
        List<ObjectMeta> objects = new ArrayList<>(Math.min(keys.size(), limit));
        for (String k : keys.subList(0, Math.min(keys.size(), limit))) {
            ObjectMeta meta = metas.get(k);
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
     * @see BitCask#merge()
     */
    public MergeResult merge() {
        return db.merge();
    }

    /** Size and fragmentation of the underlying store. */
    public BitCaskStats stats() {
        return db.stats();
    }

    /** The options the underlying store was opened with. */
    public BitCaskOptions options() {
        return db.options();
    }

    /** The store's directory. */
    public Path directory() {
        return db.directory();
    }

    /** The underlying store, for its meters. */
    BitCask bitcask() {
        return db;
    }

    /** Closes the store, forcing everything written to disk. */
    @Override
    public void close() {
        db.close();
    }

    /** The store key of an object. */
    static String storeKey(String bucket, String key) {
        return Objects.requireNonNull(bucket, "bucket") + "/" + Objects.requireNonNull(key, "key");
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
