package io.caskbench.raft.client;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.RaftLimits;
import io.caskbench.raft.Replies;
import io.caskbench.raft.Tls;
import io.caskbench.raft.server.Command;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.ClientFactory;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.TimeDuration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Threading: safe for any number of threads; {@link #close()} once they are done.
 *
 * <p>A client of a replicated BitCask, with the calls of {@code BitCask}: put, get, delete, TTL
 * puts and atomic batches. Each key goes to its group's leader, found and followed by Raft's
 * client; a request that fails on a leader change, a lost connection or any other failure of the
 * transport ({@link GuardedTransport}) is retried by Raft's client with the same call id, and the
 * replicas' retry cache answers a retry of a write already applied with the first answer, so a
 * write is applied at most once. This client never sends a call again under a new call id. Reads
 * are linearizable unless {@link #getStale} is asked for.
 *
 * <p>Every call gives up after the timeout with a {@link RaftUnavailableException}: each attempt
 * waits at most a third of the timeout (200 ms to 1 s), and no attempt starts after the deadline,
 * so a call returns within the timeout plus one attempt. It gives up at once, with a
 * {@link TlsRefusedException} naming the cause, when a majority of the replicas refused the TLS
 * handshake.
 */
public final class ReplicatedBitCask implements AutoCloseable {

    /** The cluster; immutable. */
    private final Cluster cluster;
    /** One Raft client per group, index = shard; each thread-safe. */
    private final List<RaftClient> clients = new ArrayList<>();
    /** How long a call may take. */
    private final Duration timeout;
    /** The retry policy of every Raft client here; thread-safe. */
    private final DeadlineRetry retry;
    /** Guards close; any thread. */
    private volatile boolean closed;

    private ReplicatedBitCask(Cluster cluster, Duration timeout, Tls tls, UnaryOperator<RaftClientRpc> transport) {
        this.cluster = cluster;
        this.timeout = timeout;
        this.retry = new DeadlineRetry(cluster.peers().size());
        RaftProperties p = new RaftProperties();
        long attemptMs = Math.max(200, Math.min(1000, timeout.toMillis() / 3));
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(attemptMs, TimeUnit.MILLISECONDS));
        RaftClientConfigKeys.Rpc.setWatchRequestTimeout(p, TimeDuration.valueOf(attemptMs, TimeUnit.MILLISECONDS));
        RaftLimits.applyToClient(p);
        Parameters parameters = new Parameters();
        if (tls != null) {
            tls.applyTo(parameters);
        }
        ClientFactory factory = ClientFactory.cast(RaftConfigKeys.Rpc.type(p, s -> { }).newFactory(parameters));
        for (RaftGroup group : cluster.groups()) {
            ClientId id = ClientId.randomId();
            clients.add(RaftClient.newBuilder()
                    .setProperties(p)
                    .setParameters(parameters)
                    .setRaftGroup(group)
                    .setClientId(id)
                    .setClientRpc(new GuardedTransport(transport.apply(factory.newRaftClientRpc(id, p))))
                    .setRetryPolicy(retry)
                    .build());
        }
    }

    /** A client of {@code cluster}; each call gives up after {@code timeout}. */
    public static ReplicatedBitCask connect(Cluster cluster, Duration timeout) {
        return connect(cluster, timeout, null);
    }

    /** A client of {@code cluster} over mutual TLS ({@code tls} null for plain text). */
    public static ReplicatedBitCask connect(Cluster cluster, Duration timeout, Tls tls) {
        return connect(cluster, timeout, tls, UnaryOperator.identity());
    }

    /** A client whose Raft transport is {@code transport} applied to gRPC's: the tests' seam for transport faults. */
    static ReplicatedBitCask connect(Cluster cluster, Duration timeout, Tls tls, UnaryOperator<RaftClientRpc> transport) {
        Objects.requireNonNull(cluster, "cluster");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        return new ReplicatedBitCask(cluster, timeout, tls, transport);
    }

    /**
     * Stores {@code value} under {@code key} once a majority holds it.
     *
     * @throws IllegalArgumentException before anything is sent, when the key or the value is over
     *         {@link RaftLimits}
     */
    public void put(byte[] key, byte[] value) {
        write(List.of(new Command.Op(key, Objects.requireNonNull(value, "value"), 0)));
    }

    /** Stores {@code value} under a UTF-8 key. */
    public void put(String key, byte[] value) {
        put(utf8(key), value);
    }

    /**
     * Stores {@code value} under {@code key} until {@code ttl} has passed, counted from when the
     * leader received it; the expiry is fixed then, so every replica drops it at the same time.
     */
    public void put(byte[] key, byte[] value, Duration ttl) {
        write(List.of(new Command.Op(key, Objects.requireNonNull(value, "value"), ttlMillis(ttl))));
    }

    /** Stores {@code value} under a UTF-8 key until {@code ttl} has passed. */
    public void put(String key, byte[] value, Duration ttl) {
        put(utf8(key), value, ttl);
    }

    /** Deletes {@code key}; true when a live value was removed. */
    public boolean delete(byte[] key) {
        return write(List.of(new Command.Op(key, null, 0)))[0] == 1;
    }

    /** Deletes a UTF-8 key; true when a live value was removed. */
    public boolean delete(String key) {
        return delete(utf8(key));
    }

    /**
     * Applies every operation of {@code batch} atomically on every replica.
     *
     * @throws IllegalArgumentException before anything is sent, when the batch is empty, its keys
     *         belong to different groups, or a key, a value or the whole is over {@link RaftLimits}
     */
    public void write(ReplicatedBatch batch) {
        write(batch.ops());
    }

    /**
     * The value of {@code key}, read linearizably through the leader; null when absent.
     *
     * @throws IllegalArgumentException before anything is sent, when the key is over {@link RaftLimits}
     */
    public byte[] get(byte[] key) {
        RaftClient client = clients.get(cluster.shardOf(RaftLimits.checkKey(key)));
        return Replies.valueOf(call(() -> client.io().sendReadOnly(message(key)), "get"));
    }

    /** The value of a UTF-8 key, read linearizably; null when absent. */
    public byte[] get(String key) {
        return get(utf8(key));
    }

    /**
     * The value of {@code key} as replica {@code peer} holds it now, without asking the leader:
     * it may miss writes acknowledged already (never more than the replica has not yet caught up
     * on), and two stale reads from different replicas may go back in time.
     *
     * @throws IllegalArgumentException before anything is sent, when the key is over {@link RaftLimits}
     *         or {@code peer} is not a replica
     */
    public byte[] getStale(byte[] key, String peer) {
        cluster.port(peer);
        RaftClient client = clients.get(cluster.shardOf(RaftLimits.checkKey(key)));
        return Replies.valueOf(call(() -> client.io().sendStaleRead(message(key), 0, Cluster.peerId(peer)), "stale get"));
    }

    /** The value of a UTF-8 key as replica {@code peer} holds it now. */
    public byte[] getStale(String key, String peer) {
        return getStale(utf8(key), peer);
    }

    /** The group (shard) that holds {@code key}. */
    public int shardOf(byte[] key) {
        return cluster.shardOf(key);
    }

    /**
     * The leader of every group as the replicas name it now, index = shard, null for a group none of
     * the reachable replicas names a leader for (an election under way, or no majority reachable).
     * Replicas are asked in turn, one attempt each. A replica cut off from the others keeps naming the
     * leader it last knew until its election timeout has passed.
     */
    public List<String> leaders() {
        if (closed) {
            throw new IllegalStateException("client closed");
        }
        List<String> leaders = new ArrayList<>();
        for (int shard = 0; shard < clients.size(); shard++) {
            leaders.add(leaderOf(shard));
        }
        return leaders;
    }

    private String leaderOf(int shard) {
        RaftClient client = clients.get(shard);
        RaftGroupId group = cluster.groups().get(shard).getGroupId();
        for (String peer : cluster.peers().keySet()) {
            retry.startCall(System.nanoTime()); // one attempt: the next replica is the retry
            try {
                RoleInfoProto role = client.getGroupManagementApi(Cluster.peerId(peer)).info(group).getRoleInfoProto();
                if (role.getRole() == RaftPeerRole.LEADER) {
                    return peer;
                }
                if (role.hasFollowerInfo() && role.getFollowerInfo().hasLeaderInfo()) {
                    String leader = role.getFollowerInfo().getLeaderInfo().getId().getId().toStringUtf8();
                    if (!leader.isEmpty()) {
                        return leader;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // this replica did not answer or knows no leader: ask the next
            }
        }
        return null;
    }

    private byte[] write(List<Command.Op> ops) {
        int shard = -1;
        for (Command.Op op : ops) {
            int s = cluster.shardOf(RaftLimits.checkKey(op.key()));
            if (!op.isDelete()) {
                RaftLimits.checkValue(op.value());
            }
            if (shard != -1 && s != shard) {
                throw new IllegalArgumentException("a batch's keys must belong to one group; use one batch per group");
            }
            shard = s;
        }
        Command command = Command.relative(ops);
        RaftLimits.checkWrite(command.encodedSize());
        Message m = message(command.encode());
        RaftClient client = clients.get(shard);
        return call(() -> client.io().send(m), "write");
    }

    /** One blocking Raft call: the policy retries it until the deadline. */
    private interface RaftCall {
        RaftClientReply send() throws IOException;
    }

    private byte[] call(RaftCall call, String what) {
        if (closed) {
            throw new IllegalStateException("client closed");
        }
        retry.startCall(System.nanoTime() + timeout.toNanos());
        RaftClientReply reply;
        try {
            reply = call.send();
        } catch (IOException e) {
            throw failure(what, e);
        } catch (RuntimeException e) {
            // Raft's client itself failed, not its transport (whose failures GuardedTransport makes
            // retried attempts). Sending the call again would give it a new call id, which the retry
            // cache cannot match with an earlier attempt that reached the leader: reported, not resent.
            throw new RaftUnavailableException(what + " failed in Raft's client" + maybeApplied(what) + " (" + e + ")", e);
        }
        if (!reply.isSuccess()) {
            throw failure(what, reply.getException());
        }
        return reply.getMessage().getContent().toByteArray();
    }

    private RuntimeException failure(String what, Throwable cause) {
        if (cause instanceof StateMachineException sme && sme.getCause() instanceof IllegalArgumentException iae) {
            return new IllegalArgumentException(iae.getMessage(), sme);
        }
        Throwable tls = retry.tlsRefusal();
        if (tls != null) {
            return new TlsRefusedException(what + ": the TLS handshake failed with " + retry.refusedTls()
                    + ", a majority of the replicas: " + TlsRefusedException.describe(tls) + maybeApplied(what), tls);
        }
        if (retry.expired() || cause instanceof IOException) {
            return new RaftUnavailableException(what + ": no majority answered within " + seconds(timeout) + maybeApplied(what)
                    + " (" + cause + ")", cause);
        }
        return new BitCaskException(what + " failed: " + cause, cause);
    }

    private static String maybeApplied(String what) {
        return what.equals("write") ? "; the write may or may not be applied" : "";
    }

    private static Message message(byte[] bytes) {
        return Message.valueOf(UnsafeByteOperations.unsafeWrap(bytes));
    }

    static byte[] utf8(String key) {
        return Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8);
    }

    static long ttlMillis(Duration ttl) {
        long ms = Objects.requireNonNull(ttl, "ttl").toMillis();
        if (ms <= 0) {
            throw new IllegalArgumentException("ttl must be at least one millisecond: " + ttl);
        }
        return ms;
    }

    /** Closes the Raft clients; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RaftClient c : clients) {
            try {
                c.close();
            } catch (IOException e) {
                // nothing is pending that could be lost: a client holds no data
            }
        }
    }

    /** A timeout as a person writes it: {@code 2 s} or {@code 1.5 s}, not {@code PT2S}. */
    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.3f s", ms / 1000.0);
    }
}
