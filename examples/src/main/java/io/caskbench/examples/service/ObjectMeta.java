package io.caskbench.examples.service;

import io.protostuff.Tag;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The metadata of one stored object, the value type of the service: what an object store keeps
 * about a blob besides its bytes. Stored with {@link io.caskbench.bitcask.ProtostuffCodec}.
 *
 * <p>The {@code @Tag} numbers are the stored format: Protostuff would otherwise number fields in
 * declaration order, and reordering them would silently misread every record already on disk.
 * Add new fields with new numbers; never reuse one.
 */
public final class ObjectMeta {

    @Tag(1)
    private String bucket;
    @Tag(2)
    private String key;
    @Tag(3)
    private long size;
    @Tag(4)
    private String md5;
    @Tag(5)
    private String contentType;
    @Tag(6)
    private long createdMillis;
    @Tag(7)
    private Map<String, String> userMetadata;

    /** For Protostuff, which fills the fields itself. */
    public ObjectMeta() {
    }

    /** Metadata with every field; {@code userMetadata} is copied. */
    public ObjectMeta(String bucket, String key, long size, String md5, String contentType, Instant created,
                      Map<String, String> userMetadata) {
        this.bucket = Objects.requireNonNull(bucket, "bucket");
        this.key = Objects.requireNonNull(key, "key");
        this.size = size;
        this.md5 = Objects.requireNonNull(md5, "md5");
        this.contentType = Objects.requireNonNull(contentType, "contentType");
        this.createdMillis = created.toEpochMilli();
        this.userMetadata = new TreeMap<>(userMetadata);
    }

    /** The bucket the object lives in. */
    public String bucket() {
        return bucket;
    }

    /** The object's key within its bucket. */
    public String key() {
        return key;
    }

    /** The object's size in bytes. */
    public long size() {
        return size;
    }

    /** The MD5 of the object's bytes, 32 lower-case hex digits. */
    public String md5() {
        return md5;
    }

    /** The object's media type. */
    public String contentType() {
        return contentType;
    }

    /** When this metadata was stored, to the millisecond. */
    public Instant created() {
        return Instant.ofEpochMilli(createdMillis);
    }

    /** User-defined name/value pairs, sorted by name; empty when there are none. */
    public Map<String, String> userMetadata() {
        // Protostuff leaves an empty map out of the record, so it comes back as null.
        return userMetadata == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(userMetadata));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectMeta m && bucket.equals(m.bucket) && key.equals(m.key) && size == m.size
                && md5.equals(m.md5) && contentType.equals(m.contentType) && createdMillis == m.createdMillis
                && userMetadata().equals(m.userMetadata());
    }

    @Override
    public int hashCode() {
        return Objects.hash(bucket, key, size, md5, contentType, createdMillis, userMetadata());
    }

    @Override
    public String toString() {
        return "ObjectMeta[" + bucket + "/" + key + ", " + size + " bytes, md5 " + md5 + ", " + contentType + ", "
                + created() + ", " + userMetadata() + "]";
    }
}
