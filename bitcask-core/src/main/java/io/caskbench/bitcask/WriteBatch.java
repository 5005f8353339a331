package io.caskbench.bitcask;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Puts and deletes applied together by {@link BitCask#write(WriteBatch)}: after a crash either
 * all of them are there or none is, and no reader sees some applied and not the others.
 * Not thread-safe; build it on one thread.
 */
public final class WriteBatch {

    /** One operation of a batch. */
    record Op(byte[] key, byte[] value, long ttlMillis) {
        boolean isDelete() {
            return value == null;
        }
    }

    private final List<Op> ops = new ArrayList<>();

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
        long millis = BitCask.ttlMillis(ttl);
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
}
