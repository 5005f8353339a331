package io.caskbench.raft.client;

import io.caskbench.raft.server.Command;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Threading: for one thread; hand it to {@link ReplicatedBitCask#write} once built.
 *
 * <p>Puts and deletes applied together on every replica: all or none, and no reader sees part of
 * them. All keys of a batch must belong to one group ({@link ReplicatedBitCask#shardOf}); with one
 * group, any keys do.
 */
public final class ReplicatedBatch {

    /** The operations in order; the building thread. */
    private final List<Command.Op> ops = new ArrayList<>();

    /** Adds a put. The arrays are not copied. */
    public ReplicatedBatch put(byte[] key, byte[] value) {
        ops.add(new Command.Op(key, Objects.requireNonNull(value, "value"), 0));
        return this;
    }

    /** Adds a put of a UTF-8 key. */
    public ReplicatedBatch put(String key, byte[] value) {
        return put(ReplicatedBitCask.utf8(key), value);
    }

    /** Adds a put that expires {@code ttl} after the leader received the batch. */
    public ReplicatedBatch put(byte[] key, byte[] value, Duration ttl) {
        ops.add(new Command.Op(key, Objects.requireNonNull(value, "value"), ReplicatedBitCask.ttlMillis(ttl)));
        return this;
    }

    /** Adds a delete. */
    public ReplicatedBatch delete(byte[] key) {
        ops.add(new Command.Op(key, null, 0));
        return this;
    }

    /** Adds a delete of a UTF-8 key. */
    public ReplicatedBatch delete(String key) {
        return delete(ReplicatedBitCask.utf8(key));
    }

    /** Number of operations. */
    public int size() {
        return ops.size();
    }

    List<Command.Op> ops() {
        return List.copyOf(ops);
    }
}
