package io.caskbench.raft.server;

import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.raft.Replies;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Threading: Raft calls {@link #applyTransaction}, {@link #takeSnapshot} and
 * {@link #reinitialize} from one apply thread per group, {@link #startTransaction} and
 * {@link #query} from its request threads.
 *
 * <p>The Raft state machine of one group on one replica: applies the log's commands to the
 * replica's {@link ReplicaStore}, answers reads from it, and takes and restores snapshots made by
 * the store's own checkpoint.
 *
 * <p>At start the store is opened from its own folder; if a snapshot is newer than what the
 * store holds (the store was lost, or a snapshot was installed from the leader), the store is
 * replaced by a copy of the snapshot. Raft then replays the log from the snapshot's index on;
 * entries the store already holds are skipped by their index.
 */
public final class BitCaskStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(BitCaskStateMachine.class);

    /** The snapshots; thread-safe. */
    private final SnapshotStore snapshots = new SnapshotStore();
    /** Options of the local store. */
    private final BitCaskOptions options;
    /** The wall clock in epoch milliseconds, for TTLs. */
    private final LongSupplier clock;
    /** Commands applied since start (skipped replays not counted); any thread. */
    private final AtomicLong appliedCommands = new AtomicLong();
    /** The local store; set in {@link #initialize}, replaced in {@link #reinitialize} on the apply thread. */
    private volatile ReplicaStore store;

    /** A state machine whose store is opened with {@code options} (its sync policy is overridden to NONE). */
    public BitCaskStateMachine(BitCaskOptions options, LongSupplier clock) {
        this.options = options;
        this.clock = clock;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        snapshots.init(raftStorage);
        Path storeDir = raftStorage.getStorageDir().getRoot().toPath().resolve("bitcask");
        getLifeCycle().startAndTransition(() -> {
            store = ReplicaStore.open(storeDir, options);
            restoreIfBehind();
        });
    }

    /** Raft pauses the machine before it installs a snapshot from the leader; applies and reads stop meanwhile. */
    @Override
    public void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** After a snapshot from the leader was installed: the store becomes a copy of it. */
    @Override
    public void reinitialize() throws IOException {
        getLifeCycle().startAndTransition(() -> {
            snapshots.reload();
            restoreIfBehind();
        });
    }

    /** Replaces the store by the newest snapshot when that is ahead of it, and sets the applied index Raft resumes from. */
    private void restoreIfBehind() {
        Path latest = snapshots.latestDir();
        TermIndex snapshot = snapshots.getLatestSnapshot() == null ? null : snapshots.getLatestSnapshot().getTermIndex();
        if (latest != null && ReplicaStore.appliedIndexOf(latest) > store.appliedIndex()) {
            LOG.info("{}: store at index {} is behind snapshot {}; restoring it", getId(), store.appliedIndex(), snapshot);
            store.replaceWith(latest);
        }
        if (snapshot != null) {
            setLastAppliedTermIndex(snapshot);
        }
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return snapshots;
    }

    /** The leader fixes each TTL as an absolute time and checks the command before it enters the log. */
    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        TransactionContext.Builder trx = TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request);
        try {
            Command command = Command.decode(request.getMessage().getContent().toByteArray());
            store.check(command);
            byte[] fixed = command.fixExpiry(clock.getAsLong()).encode();
            return trx.setLogData(UnsafeByteOperations.unsafeWrap(fixed)).build();
        } catch (IllegalArgumentException e) {
            TransactionContext rejected = trx.build();
            rejected.setException(e);
            return rejected;
        }
    }

    /**
     * Applies one committed command. A failure to write the local store is thrown, not returned:
     * Raft then stops this replica, which replays the entry from its log when restarted, instead
     * of going on with a store that missed it.
     */
    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        Command command = Command.decode(entry.getStateMachineLogEntry().getLogData().toByteArray());
        boolean skipped = entry.getIndex() <= store.appliedIndex();
        boolean[] hadValue = store.apply(command, entry.getTerm(), entry.getIndex(), clock.getAsLong());
        if (!skipped) {
            appliedCommands.incrementAndGet();
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(Replies.flags(hadValue))));
    }

    /** Answers a read from the local store; Raft decides beforehand whether it is linearizable or stale. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        byte[] key = request.getContent().toByteArray();
        byte[] value = store.get(key, clock.getAsLong());
        return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(Replies.value(value))));
    }

    /**
     * Backs the store up as a snapshot at the last applied index; Raft purges the log up to it.
     * A failure is an {@link IOException}: Raft logs it, keeps the log, and the replica goes on.
     */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex applied = getLastAppliedTermIndex();
        if (applied == null || store.appliedIndex() == 0) {
            return RaftLog.INVALID_LOG_INDEX; // nothing in the store yet, and an empty snapshot cannot be sent
        }
        snapshots.take(store, applied);
        LOG.info("{}: snapshot at {}", getId(), applied);
        return applied.getIndex();
    }

    /** Commands applied to the store since this replica started, replays skipped by index not counted. */
    public long appliedCommands() {
        return appliedCommands.get();
    }

    /** The local store, for stale reads inside this process. */
    public ReplicaStore store() {
        return store;
    }

    @Override
    public void close() throws IOException {
        ReplicaStore s = store;
        if (s != null) {
            s.close();
        }
    }
}
