package io.caskbench.bitcask;

import io.caskbench.bitcask.log.LogWriter;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Threading: for one thread; hand it to {@link BitCask#write(WriteBatch)} once built.
 *
 * <p>Puts and deletes applied together by {@link BitCask#write(WriteBatch)}: after a crash either
 * all of them are there or none is, and no reader sees some applied and not the others.
 */
public final class WriteBatch {

    /** The operations in order; the building thread. */
    private final List<Op> ops = new ArrayList<>();

    /** One operation of a batch. */
    record Op(byte[] key, byte[] value, long ttlMillis) {
        boolean isDelete() {
            return value == null;
        }
    }

    /** Adds a put. Arguments are checked now; the arrays are not copied, so do not change them before the write. */
    public WriteBatch put(byte[] key, byte[] value) {
        ops.add(new Op(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"), 0));
        return this;
    }

    /** Adds a put of a UTF-8 key. */
    public WriteBatch put(String key, byte[] value) {
        return put(Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8), value);
    }

    /** Adds a put whose key expires after {@code ttl}. */
    public WriteBatch put(byte[] key, byte[] value, Duration ttl) {
        long millis = Limits.ttlMillis(ttl);
        ops.add(new Op(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"), millis));
        return this;
    }

    /** Adds a put of a UTF-8 key whose key expires after {@code ttl}. */
    public WriteBatch put(String key, byte[] value, Duration ttl) {
        return put(Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8), value, ttl);
    }

    /** Adds a delete. */
    public WriteBatch delete(byte[] key) {
        ops.add(new Op(Objects.requireNonNull(key, "key"), null, 0));
        return this;
    }

    /** Adds a delete of a UTF-8 key. */
    public WriteBatch delete(String key) {
        return delete(Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8));
    }

    /** Number of operations. */
    public int size() {
        return ops.size();
    }

    /** True when there is nothing to write. */
    public boolean isEmpty() {
        return ops.isEmpty();
    }

    /** Removes every operation so the batch can be reused. */
    public void clear() {
        ops.clear();
    }

    List<Op> ops() {
        return Collections.unmodifiableList(ops);
    }

    /** The log writer's view of the operations: a delete has a null value. */
    LogWriter.Batch members() {
        return new LogWriter.Batch() {
            @Override
            public int size() {
                return ops.size();
            }

            @Override
            public byte[] key(int i) {
                return ops.get(i).key();
            }

            @Override
            public byte[] value(int i) {
                return ops.get(i).value();
            }

            @Override
            public long ttlMillis(int i) {
                return ops.get(i).ttlMillis();
            }
        };
    }
}
