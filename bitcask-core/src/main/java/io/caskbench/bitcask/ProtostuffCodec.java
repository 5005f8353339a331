package io.caskbench.bitcask;

import io.protostuff.LinkedBuffer;
import io.protostuff.ProtostuffIOUtil;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;

import java.util.Objects;

/**
 * Threading: thread-safe; the schema is immutable and buffers are per call.
 *
 * <p>A {@link Codec} that serializes plain Java classes with Protostuff's runtime schema. Protostuff
 * is an optional dependency of bitcask-core: add {@code io.protostuff:protostuff-runtime} to use
 * this class. Thread-safe.
 *
 * @param <T> the value type; needs a no-argument constructor or Protostuff's instantiation support
 */
public final class ProtostuffCodec<T> implements Codec<T> {

    private static final ThreadLocal<LinkedBuffer> BUFFER = ThreadLocal.withInitial(() -> LinkedBuffer.allocate(512));

    private final Schema<T> schema;

    private ProtostuffCodec(Class<T> type) {
        this.schema = RuntimeSchema.getSchema(type);
    }

    /** A codec for {@code type}. */
    public static <T> ProtostuffCodec<T> of(Class<T> type) {
        return new ProtostuffCodec<>(Objects.requireNonNull(type, "type"));
    }

    @Override
    public byte[] encode(T value) {
        Objects.requireNonNull(value, "value");
        LinkedBuffer buffer = BUFFER.get();
        try {
            return ProtostuffIOUtil.toByteArray(value, schema, buffer);
        } finally {
            buffer.clear();
        }
    }

    @Override
    public T decode(byte[] bytes) {
        T message = schema.newMessage();
        ProtostuffIOUtil.mergeFrom(bytes, message, schema);
        return message;
    }
}
