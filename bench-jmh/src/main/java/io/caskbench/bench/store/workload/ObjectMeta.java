package io.caskbench.bench.store.workload;

import io.protostuff.LinkedBuffer;
import io.protostuff.ProtostuffIOUtil;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The object-storage metadata record that the reference experiment stores as its value: what an object store keeps per
 * object (bucket, name, size, checksum, type, times, owner). Serialized with Protostuff, as in the seed.
 */
public final class ObjectMeta {

    String bucket;
    String name;
    long size;
    String md5;
    String contentType;
    long createTime;
    long modifyTime;
    String storageClass;
    String ownerId;
    String versionId;
    int replicas;
    Map<String, String> userMetadata;

    /** Protostuff's runtime schema needs a no-argument constructor. */
    public ObjectMeta() {
    }

    /** A realistic record for object {@code object<index>.png}, identical on every run. */
    public static ObjectMeta sample(int index) {
        ObjectMeta meta = new ObjectMeta();
        meta.bucket = "images";
        meta.name = "object" + index + ".png";
        meta.size = 348_291L + index;
        meta.md5 = "9e107d9d372bb6826bd81d3542a419d6";
        meta.contentType = "image/png";
        meta.createTime = 1_700_000_000_000L;
        meta.modifyTime = 1_700_000_360_000L;
        meta.storageClass = "STANDARD";
        meta.ownerId = "u-20931";
        meta.versionId = "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY+MTRCxf3vjVBH40Nr8X8gdRQBpUMLUo";
        meta.replicas = 3;
        meta.userMetadata = new LinkedHashMap<>();
        meta.userMetadata.put("uploader", "web-frontend");
        meta.userMetadata.put("width", "1920");
        meta.userMetadata.put("height", "1080");
        return meta;
    }

    /** Protostuff bytes of this record. */
    public byte[] toBytes() {
        Schema<ObjectMeta> schema = RuntimeSchema.getSchema(ObjectMeta.class);
        return ProtostuffIOUtil.toByteArray(this, schema, LinkedBuffer.allocate(512));
    }

    /** Reads a record written by {@link #toBytes()}. */
    public static ObjectMeta fromBytes(byte[] bytes) {
        Schema<ObjectMeta> schema = RuntimeSchema.getSchema(ObjectMeta.class);
        ObjectMeta meta = schema.newMessage();
        ProtostuffIOUtil.mergeFrom(bytes, meta, schema);
        return meta;
    }

    /** The object name, as stored. */
    public String name() {
        return name;
    }

    /** The object size in bytes, as stored. */
    public long size() {
        return size;
    }
}
