package io.caskbench.raft.client;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.server.ReplicaServer;
import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A runtime exception from Raft's transport, as its gRPC client throws when another thread closed
 * the connection it was about to use, is one more failed attempt: retried under the same call id
 * until the deadline, never thrown raw.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TransportFailureTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void aTransportThatKeepsThrowingEndsInRaftUnavailableAtTheDeadline() {
        AtomicInteger attempts = new AtomicInteger();
        Cluster nowhere = Cluster.parse("n1=127.0.0.1:" + LocalCluster.freePort(), 1);
        try (ReplicatedBitCask client = ReplicatedBitCask.connect(nowhere, Duration.ofSeconds(2), null,
                rpc -> new Throwing(rpc, request -> {
                    attempts.incrementAndGet();
                    throw new NullPointerException("Cannot invoke \"GrpcClientProtocolClient.unorderedWithTimeout(...)\""
                            + " because \"proxy\" is null");
                }))) {
            assertThatThrownBy(() -> client.get("k")).isInstanceOf(RaftUnavailableException.class)
                    .hasMessageContaining("get: no majority answered within 2 s");
            assertThat(attempts).as("attempts of the get").hasValueGreaterThan(1);
            attempts.set(0);
            assertThatThrownBy(() -> client.put("k", utf8("v"))).isInstanceOf(RaftUnavailableException.class)
                    .hasMessageContaining("the write may or may not be applied");
            assertThat(attempts).as("attempts of the put").hasValueGreaterThan(1);
        }
    }

    @Test
    void aWriteWhoseReplyIsLostToARuntimeExceptionIsRetriedAndAppliedOnce() {
        AtomicBoolean lost = new AtomicBoolean();
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg);
             ReplicatedBitCask client = ReplicatedBitCask.connect(c.cluster, Duration.ofSeconds(5), null,
                     rpc -> new Throwing(rpc, request -> {
                         RaftClientReply reply = rpc.sendRequest(request);
                         if (request.is(org.apache.ratis.proto.RaftProtos.RaftClientRequestProto.TypeCase.WRITE)
                                 && reply.isSuccess() && lost.compareAndSet(false, true)) {
                             throw new NullPointerException("the reply of an applied write is lost");
                         }
                         return reply;
                     }))) {
            c.awaitLeader(0, WAIT);
            Map<String, Long> before = new HashMap<>();
            for (ReplicaServer r : c.running()) {
                before.put(r.id(), r.stateMachine(0).appliedCommands());
            }
            client.put("once", utf8("1"));
            assertThat(lost).as("the first answer was lost").isTrue();
            assertThat(client.get("once")).isEqualTo(utf8("1"));
            for (ReplicaServer r : c.running()) {
                LocalCluster.await(r.id() + " applies the write", WAIT,
                        () -> r.stateMachine(0).appliedCommands() > before.get(r.id()));
                assertThat(r.stateMachine(0).appliedCommands() - before.get(r.id()))
                        .as("the write entered %s's log once", r.id()).isEqualTo(1);
            }
        }
    }

    /** One blocking send. */
    private interface Send {
        RaftClientReply send(RaftClientRequest request) throws IOException;
    }

    /** Raft's transport with its blocking send replaced. */
    private static final class Throwing implements RaftClientRpc {
        private final RaftClientRpc delegate;
        private final Send send;

        Throwing(RaftClientRpc delegate, Send send) {
            this.delegate = delegate;
            this.send = send;
        }

        @Override
        public RaftClientReply sendRequest(RaftClientRequest request) throws IOException {
            return send.send(request);
        }

        @Override
        public boolean handleException(RaftPeerId serverId, Throwable t, boolean reconnect) {
            return delegate.handleException(serverId, t, reconnect);
        }

        @Override
        public boolean shouldReconnect(Throwable t) {
            return delegate.shouldReconnect(t);
        }

        @Override
        public void addRaftPeers(Collection<RaftPeer> peers) {
            delegate.addRaftPeers(peers);
        }

        @Override
        public void close() throws IOException {
            delegate.close();
        }
    }
}
