package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.WriteBatch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One operation of a test workload, with its effect on a model of the store's contents. Opening
 * and closing the store are steps too, but the runner performs them itself.
 *
 * @param kind  what it does
 * @param key   the key of a put, delete or get, else null
 * @param value the value of a put, else null
 * @param batch the puts and deletes of a batch, else null
 */
public record Step(Kind kind, String key, byte[] value, List<Step> batch) {

    /** A TTL long enough never to expire during a test. */
    public static final Duration LONG_TTL = Duration.ofDays(1);

    /** The kinds of step. */
    public enum Kind {
        /** Open the store. */
        OPEN,
        /** Close the store. */
        CLOSE,
        /** {@code put}. */
        PUT,
        /** {@code put} with {@link #LONG_TTL}. */
        PUT_TTL,
        /** {@code delete}. */
        DELETE,
        /** {@code write(WriteBatch)} of puts and deletes. */
        BATCH,
        /** {@code get}. */
        GET,
        /** {@code sync()}. */
        SYNC,
        /** {@code merge()}: the segments the selection picks. */
        MERGE,
        /** {@code merge(MergeScope.ALL)}. */
        MERGE_ALL,
        /** {@code backup(dir)}. */
        BACKUP,
        /** {@code checkpoint(dir)}, into {@link #checkpointDir} of the backup directory. */
        CHECKPOINT
    }

    /** Checks the fields that each kind needs. */
    public Step {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.BATCH) {
            Objects.requireNonNull(batch, "batch");
        }
    }

    /** Opens the store. */
    public static Step open() {
        return new Step(Kind.OPEN, null, null, null);
    }

    /** Closes the store. */
    public static Step close() {
        return new Step(Kind.CLOSE, null, null, null);
    }

    /** Puts {@code value} under {@code key}. */
    public static Step put(String key, byte[] value) {
        return new Step(Kind.PUT, key, value, null);
    }

    /** Puts {@code value} under {@code key} with {@link #LONG_TTL}. */
    public static Step putTtl(String key, byte[] value) {
        return new Step(Kind.PUT_TTL, key, value, null);
    }

    /** Deletes {@code key}. */
    public static Step delete(String key) {
        return new Step(Kind.DELETE, key, null, null);
    }

    /** Writes puts and deletes as one batch. */
    public static Step batch(List<Step> ops) {
        for (Step s : ops) {
            if (s.kind != Kind.PUT && s.kind != Kind.DELETE) {
                throw new IllegalArgumentException("a batch holds puts and deletes: " + s);
            }
        }
        return new Step(Kind.BATCH, null, null, List.copyOf(ops));
    }

    /** Reads {@code key}. */
    public static Step get(String key) {
        return new Step(Kind.GET, key, null, null);
    }

    /** Forces everything written so far. */
    public static Step sync() {
        return new Step(Kind.SYNC, null, null, null);
    }

    /** Merges the segments the selection picks. */
    public static Step merge() {
        return new Step(Kind.MERGE, null, null, null);
    }

    /** Merges every segment. */
    public static Step mergeAll() {
        return new Step(Kind.MERGE_ALL, null, null, null);
    }

    /** True for either kind of merge. */
    public boolean isMerge() {
        return kind == Kind.MERGE || kind == Kind.MERGE_ALL;
    }

    /** Backs the store up into the runner's backup directory. */
    public static Step backup() {
        return new Step(Kind.BACKUP, null, null, null);
    }

    /** Checkpoints the store into the runner's checkpoint directory. */
    public static Step checkpoint() {
        return new Step(Kind.CHECKPOINT, null, null, null);
    }

    /** Where a checkpoint goes: beside the backup directory {@code backupDir}. */
    public static Path checkpointDir(Path backupDir) {
        return backupDir.resolveSibling("checkpoint");
    }

    /** True for the steps that change the logical contents. */
    public boolean mutates() {
        return kind == Kind.PUT || kind == Kind.PUT_TTL || kind == Kind.DELETE || kind == Kind.BATCH;
    }

    /** True for the steps the store must refuse once a force failed (every write, and merge). */
    public boolean isWrite() {
        return mutates() || isMerge();
    }

    /** Applies this step's effect to a model of the contents. */
    public void applyTo(Map<String, byte[]> state) {
        switch (kind) {
            case PUT, PUT_TTL -> state.put(key, value);
            case DELETE -> state.remove(key);
            case BATCH -> batch.forEach(s -> s.applyTo(state));
            default -> {
                // no effect on the contents
            }
        }
    }

    /**
     * Runs this step on {@code db} (not OPEN or CLOSE); returns what a get read, else null.
     *
     * @param backupDir where a backup goes; a checkpoint goes to {@link #checkpointDir} of it
     */
    public byte[] runOn(BitCask db, Path backupDir) {
        switch (kind) {
            case PUT -> db.put(key, value);
            case PUT_TTL -> db.put(key, value, LONG_TTL);
            case DELETE -> db.delete(key);
            case BATCH -> {
                WriteBatch b = new WriteBatch();
                for (Step s : batch) {
                    if (s.kind == Kind.PUT) {
                        b.put(s.key, s.value);
                    } else {
                        b.delete(s.key);
                    }
                }
                db.write(b);
            }
            case GET -> {
                return db.get(key);
            }
            case SYNC -> db.sync();
            case MERGE -> db.merge();
            case MERGE_ALL -> db.merge(MergeScope.ALL);
            case BACKUP -> db.backup(backupDir);
            case CHECKPOINT -> db.checkpoint(checkpointDir(backupDir));
            default -> throw new IllegalStateException("the runner opens and closes the store: " + this);
        }
        return null;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case PUT, PUT_TTL -> kind + " " + key + " (" + value.length + " bytes)";
            case DELETE, GET -> kind + " " + key;
            case BATCH -> "BATCH " + batch;
            default -> kind.toString();
        };
    }
}
