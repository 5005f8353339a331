package io.caskbench.raft.server;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;
import io.caskbench.bitcask.WriteBatch;
import io.caskbench.raft.RaftLimits;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Threading: {@link #apply} from one thread at a time (Raft's apply thread); {@link #get} from
 * any thread meanwhile; {@link #close} once the applier has stopped.
 *
 * <p>The local BitCask of one replica. Every log entry is written as one atomic batch that also
 * stores the entry's log index under a reserved key, so after a crash at any point the store
 * holds exactly the entries up to the index it names, with none skipped: the store's own log
 * recovers a prefix of what was written, and a batch is all there or not at all. The store runs
 * at {@link SyncPolicy#NONE}: the Raft log, forced on every replica before it acknowledges, is what
 * makes a write durable, and entries past the recovered index are applied again from it.
 *
 * <p>User keys are stored behind a one-byte prefix so that they can never meet the reserved key,
 * and each value behind its absolute expiry time (0 for none), which reads compare with the
 * clock; an expired value reads as absent on every replica at the same wall-clock time.
 */
public final class ReplicaStore implements AutoCloseable {

    /** Prefix of every user key. */
    private static final byte USER = 1;
    /** The reserved key holding the last applied log term and index. */
    private static final byte[] APPLIED_KEY = {0, 'a', 'p', 'p', 'l', 'i', 'e', 'd'};
    /** Bytes before the user's value: the expiry in epoch milliseconds. */
    private static final int HEADER = Long.BYTES;
    /**
     * The smallest segment of the store, 64 MiB: a write within {@link RaftLimits} takes at most
     * half of it. A put's record takes 13 bytes more than its encoded operation (a 20-byte record
     * header, the prefix and the expiry against 16 bytes), so 30 for 17 at worst (a one-byte key
     * and an empty value): under 1.8 times a write's 16 MiB + 64 KiB, 29 MiB, applied index included.
     */
    static final long MIN_SEGMENT_BYTES = BitCaskOptions.DEFAULT_SEGMENT_SIZE;

    /** The store; replaced only by {@link #replaceWith} on the apply thread while reads are paused by Raft. */
    private volatile BitCask store;
    /** Where the store lives. */
    private final Path dir;
    /** Options the store is opened with. */
    private final BitCaskOptions options;
    /** The last applied {term, index}; written by the apply thread, read anywhere. */
    private volatile long[] applied;

    private ReplicaStore(Path dir, BitCaskOptions options) {
        this.dir = dir;
        this.options = options;
        this.store = BitCask.open(dir, options);
        this.applied = readApplied(store);
    }

    /**
     * Opens (or creates) the replica's store in {@code dir}, at {@code SyncPolicy.NONE}, with room
     * for whatever {@link RaftLimits} allows: its key and value limits set to them plus the prefix
     * and the expiry header, its segments at least {@link #MIN_SEGMENT_BYTES}.
     */
    public static ReplicaStore open(Path dir, BitCaskOptions base) {
        BitCaskOptions options = base.toBuilder()
                .syncPolicy(SyncPolicy.NONE)
                .maxKeySize(RaftLimits.MAX_KEY_BYTES + 1)
                .maxValueSize(RaftLimits.MAX_VALUE_BYTES + HEADER)
                .segmentSize(Math.max(base.segmentSize(), MIN_SEGMENT_BYTES))
                // Not yet with the store's automatic merge: with it on, a follower installing a snapshot
                // never caught up (SnapshotCatchUpTest); replicas reclaim space as they did before.
                .autoMerge(false)
                .build();
        return new ReplicaStore(dir, options);
    }

    /** The index of the last log entry whose effects are in the store; 0 when none. */
    public long appliedIndex() {
        return applied[1];
    }

    /** The term of the last log entry whose effects are in the store; 0 when none. */
    public long appliedTerm() {
        return applied[0];
    }

    /**
     * Checks that {@code command} can be applied: keys, values and the whole within
     * {@link RaftLimits}, as the client checked already, and the batch within half a segment,
     * which follows from them. The leader checks before the entry enters the log, since an entry
     * that fails to apply would stop every replica.
     *
     * @throws IllegalArgumentException when it cannot
     */
    public void check(Command command) {
        long total = BitCask.recordSize(APPLIED_KEY.length, 16);
        for (Command.Op op : command.ops()) {
            RaftLimits.checkKey(op.key());
            if (!op.isDelete()) {
                RaftLimits.checkValue(op.value());
            }
            total += BitCask.recordSize(op.key().length + 1, op.isDelete() ? 0 : op.value().length + HEADER);
        }
        RaftLimits.checkWrite(command.encodedSize());
        if (total > options.segmentSize() / 2) {
            throw new IllegalArgumentException("batch of " + total + " bytes: at most " + options.segmentSize() / 2);
        }
    }

    /**
     * Applies {@code command}, the log entry at {@code term} and {@code index}, in one atomic
     * batch with the new applied index. An entry at or below the applied index is already in the
     * store and is skipped.
     *
     * @return for each operation, whether it removed or replaced a live value
     */
    public boolean[] apply(Command command, long term, long index, long nowMillis) {
        boolean[] hadValue = new boolean[command.ops().size()];
        if (index <= applied[1]) {
            return hadValue;
        }
        WriteBatch batch = new WriteBatch();
        int i = 0;
        for (Command.Op op : command.ops()) {
            byte[] key = userKey(op.key());
            hadValue[i++] = liveValue(store.get(key), nowMillis) != null;
            if (op.isDelete() || (op.expiry() != 0 && op.expiry() <= nowMillis)) {
                batch.delete(key); // a TTL put already expired when applied leaves the key absent
            } else {
                batch.put(key, storedValue(op.value(), op.expiry()));
            }
        }
        batch.put(APPLIED_KEY, ByteBuffer.allocate(16).putLong(term).putLong(index).array());
        store.write(batch);
        applied = new long[] {term, index};
        return hadValue;
    }

    /** The live value of {@code key}, or null when absent or expired at {@code nowMillis}. */
    public byte[] get(byte[] key, long nowMillis) {
        return liveValue(store.get(userKey(key)), nowMillis);
    }

    /**
     * Writes a checkpoint of the store into {@code target}: an openable copy whose older segments are
     * hard links to the store's where the file system allows it (see {@code BitCask.checkpoint}).
     */
    public void checkpoint(Path target) {
        store.checkpoint(target);
    }

    /**
     * Replaces the store with a copy of the store in {@code snapshot}, which is left unchanged.
     * The caller guarantees no apply or read runs meanwhile.
     */
    public void replaceWith(Path snapshot) {
        store.close();
        deleteTree(dir);
        try (BitCask source = BitCask.open(snapshot, options.toBuilder().readOnly(true).autoMerge(false).build())) {
            source.checkpoint(dir); // links the sealed segments, which no write changes; copies the newest
        }
        store = BitCask.open(dir, options);
        applied = readApplied(store);
    }

    /** The index recorded inside the store in {@code dir}, read without changing it; 0 when none. */
    public static long appliedIndexOf(Path dir) {
        try (BitCask s = BitCask.open(dir, BitCaskOptions.builder().readOnly(true).autoMerge(false).build())) {
            return readApplied(s)[1];
        }
    }

    /** Forces everything and closes the store; idempotent. */
    @Override
    public void close() {
        store.close();
    }

    private static long[] readApplied(BitCask s) {
        byte[] raw = s.get(APPLIED_KEY);
        if (raw == null) {
            return new long[] {0, 0};
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        return new long[] {b.getLong(), b.getLong()};
    }

    private static byte[] userKey(byte[] key) {
        byte[] k = new byte[key.length + 1];
        k[0] = USER;
        System.arraycopy(key, 0, k, 1, key.length);
        return k;
    }

    private static byte[] storedValue(byte[] value, long expiry) {
        return ByteBuffer.allocate(HEADER + value.length).putLong(expiry).put(value).array();
    }

    private static byte[] liveValue(byte[] stored, long nowMillis) {
        if (stored == null) {
            return null;
        }
        long expiry = ByteBuffer.wrap(stored).getLong();
        if (expiry != 0 && expiry <= nowMillis) {
            return null;
        }
        byte[] v = new byte[stored.length - HEADER];
        System.arraycopy(stored, HEADER, v, 0, v.length);
        return v;
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
