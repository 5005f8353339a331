package io.caskbench.raft.client;

import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * Threading: as thread-safe as the transport it guards (gRPC's is).
 *
 * <p>Raft's client transport with its runtime failures turned into {@link IOException}s. Raft's
 * blocking client retries an attempt that failed with an {@code IOException}, under the same
 * call id, so the replicas' retry cache answers a write already in the log with its first answer;
 * any other exception leaves that loop and the call. gRPC's transport throws some: a
 * {@code NullPointerException} when another thread closed the connection this attempt was about
 * to use (after a failed attempt of its own, as when a leader dies under several callers), a
 * {@code StatusRuntimeException} from its blocking stubs. An attempt may have reached a replica
 * before it failed, so the call must be retried under its call id, not sent again as a new one:
 * that is what this makes of them.
 */
final class GuardedTransport implements RaftClientRpc {

    /** The transport guarded; as thread-safe as it is. */
    private final RaftClientRpc transport;

    GuardedTransport(RaftClientRpc transport) {
        this.transport = transport;
    }

    /** Sends one attempt; a runtime failure of the transport is an {@code IOException} like a lost connection. */
    @Override
    public RaftClientReply sendRequest(RaftClientRequest request) throws IOException {
        try {
            return transport.sendRequest(request);
        } catch (RuntimeException e) {
            throw new IOException("transport failed on " + request.getServerId() + ": " + e, e);
        }
    }

    @Override
    public CompletableFuture<RaftClientReply> sendRequestAsync(RaftClientRequest request) {
        return transport.sendRequestAsync(request);
    }

    @Override
    public CompletableFuture<RaftClientReply> sendRequestAsyncUnordered(RaftClientRequest request) {
        return transport.sendRequestAsyncUnordered(request);
    }

    /** Resets the connection to a replica after a failure; a failure to do so leaves it to the next attempt. */
    @Override
    public boolean handleException(RaftPeerId serverId, Throwable t, boolean reconnect) {
        try {
            return transport.handleException(serverId, t, reconnect);
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public boolean shouldReconnect(Throwable t) {
        return transport.shouldReconnect(t);
    }

    @Override
    public void addRaftPeers(Collection<RaftPeer> peers) {
        transport.addRaftPeers(peers);
    }

    @Override
    public void close() throws IOException {
        transport.close();
    }
}
