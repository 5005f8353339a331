package io.caskbench.raft.server;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.RaftLimits;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Threading: {@link #start} and {@link #close} from one thread; the queries from any.
 *
 * <p>One replica: a Ratis server on the configured host and port that is a member of every group
 * of the cluster, each group with its own {@link BitCaskStateMachine} and local store. Reads are
 * linearizable through Raft's read index: the leader confirms with a majority that it still
 * leads before it answers, so a deposed leader that does not know it yet cannot answer.
 */
public final class ReplicaServer implements AutoCloseable {

    /** The configuration; immutable. */
    private final ReplicaConfig config;
    /** The Ratis server; started by {@link #start}. */
    private final RaftServer server;
    /** Guards {@link #close}; the closing thread. */
    private boolean closed;

    private ReplicaServer(ReplicaConfig config) throws IOException {
        this.config = config;
        RaftProperties p = properties(config);
        Parameters parameters = new Parameters();
        if (config.tls() != null) {
            config.tls().applyTo(parameters);
        }
        this.server = RaftServer.newBuilder()
                .setServerId(Cluster.peerId(config.id()))
                .setProperties(p)
                .setParameters(parameters)
                .setStateMachineRegistry(group -> new BitCaskStateMachine(config.store(), System::currentTimeMillis))
                .build();
    }

    /**
     * Starts the replica and joins it to every group it is not yet a member of; a restarted
     * replica finds its groups in its folder.
     *
     * @throws BitCaskException when the server cannot start (a port in use, a bad folder)
     */
    public static ReplicaServer start(ReplicaConfig config) {
        ReplicaServer replica = null;
        try {
            replica = new ReplicaServer(config);
            replica.server.start();
            replica.joinGroups();
            return replica;
        } catch (IOException | RuntimeException e) {
            if (replica != null) {
                replica.close();
            }
            throw new BitCaskException("replica " + config.id() + " failed to start: " + e.getMessage(), e);
        }
    }

    private void joinGroups() throws IOException {
        Set<RaftGroupId> present = new HashSet<>();
        server.getGroupIds().forEach(present::add);
        for (RaftGroup group : config.cluster().groups()) {
            if (!present.contains(group.getGroupId())) {
                RaftClientReply reply = server.groupManagement(GroupManagementRequest.newAdd(ClientId.randomId(),
                        server.getId(), 0, group));
                if (!reply.isSuccess()) {
                    throw new IOException("cannot join group " + group.getGroupId() + ": " + reply.getException());
                }
            }
        }
    }

    /** The Raft properties of a replica; clients use the same RPC type. */
    static RaftProperties properties(ReplicaConfig config) {
        RaftProperties p = new RaftProperties();
        GrpcConfigKeys.Server.setHost(p, config.cluster().host(config.id()));
        GrpcConfigKeys.Server.setPort(p, config.cluster().port(config.id()));
        RaftServerConfigKeys.setStorageDir(p, List.of(config.dir().toFile()));
        long timeoutMs = config.electionTimeout().toMillis();
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(timeoutMs, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2 * timeoutMs, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, config.snapshotEvery());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(Integer.MAX_VALUE, Math.max(1, config.snapshotEvery() / 2)));
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(config.logSegmentBytes()));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(Math.min(config.logSegmentBytes(), 4L << 20)));
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, true);
        RaftLimits.applyToReplica(p);
        return p;
    }

    /** This replica's id. */
    public String id() {
        return config.id();
    }

    /** The state machine of group {@code shard} on this replica. */
    public BitCaskStateMachine stateMachine(int shard) {
        try {
            return (BitCaskStateMachine) server.getDivision(config.cluster().groups().get(shard).getGroupId()).getStateMachine();
        } catch (IOException e) {
            throw new BitCaskException("no group " + shard + " on " + config.id(), e);
        }
    }

    /** The leader this replica sees for group {@code shard}, or null when it sees none. */
    public String leaderOf(int shard) {
        try {
            RaftPeerId leader = server.getDivision(config.cluster().groups().get(shard).getGroupId()).getInfo().getLeaderId();
            return leader == null ? null : leader.toString();
        } catch (IOException e) {
            return null;
        }
    }

    /** True when this replica leads group {@code shard}. */
    public boolean isLeader(int shard) {
        try {
            return server.getDivision(config.cluster().groups().get(shard).getGroupId()).getInfo().isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    /** True when this replica sees a leader for every group: it is ready to serve. */
    public boolean ready() {
        for (int i = 0; i < config.cluster().groups().size(); i++) {
            if (leaderOf(i) == null) {
                return false;
            }
        }
        return true;
    }

    /** Stops the server and closes the local stores; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            throw new BitCaskException("replica " + config.id() + " did not close cleanly", e);
        }
    }
}
