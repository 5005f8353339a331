package io.caskbench.raft.server;

import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.TestCertificates;
import io.caskbench.raft.Tls;
import io.caskbench.raft.client.RaftUnavailableException;
import io.caskbench.raft.client.ReplicatedBitCask;
import io.caskbench.raft.client.TlsRefusedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Mutual TLS: replicas and clients with certificates of the cluster's authority talk; others are refused. */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MutualTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Long enough that a call which waited it out could not pass for one refused at once. */
    private static final Duration STRANGER_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void aReplicaRefusesPeersAndClientsWithoutAValidCertificate() throws Exception {
        Tls good = TestCertificates.make(dir.resolve("good"), "cluster-ca");
        Tls rogue = TestCertificates.make(dir.resolve("rogue"), "rogue-ca");
        try (LocalCluster c = new LocalCluster(dir.resolve("data"), 3, 1,
                cfg -> cfg.withTls(cfg.id().equals("n3") ? rogue : good).withElectionTimeout(Duration.ofSeconds(1)));
             ReplicatedBitCask client = ReplicatedBitCask.connect(c.cluster, Duration.ofSeconds(10), good);
             ReplicatedBitCask plain = ReplicatedBitCask.connect(c.cluster, Duration.ofSeconds(2));
             ReplicatedBitCask stranger = ReplicatedBitCask.connect(c.cluster, STRANGER_TIMEOUT, rogue)) {
            String leader = c.awaitLeader(0, WAIT);
            assertThat(leader).as("the peer with a foreign certificate cannot lead").isNotEqualTo("n3");
            for (int i = 0; i < 10; i++) {
                client.put("k" + i, utf8("v" + i));
            }
            assertThat(client.get("k7")).isEqualTo(utf8("v7"));
            String follower = leader.equals("n1") ? "n2" : "n1";
            LocalCluster.await("the other trusted replica catches up", WAIT,
                    () -> Arrays.equals(client.getStale("k9", follower), utf8("v9")));

            assertThatThrownBy(() -> plain.get("k7")).as("a client without TLS").isInstanceOf(RaftUnavailableException.class);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> stranger.put("x", utf8("y"))).as("a client with a foreign certificate")
                    .isInstanceOf(TlsRefusedException.class)
                    .hasMessageContaining("TLS handshake failed")
                    .hasMessageContaining("unable to find valid certification path");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("refused without waiting out the timeout")
                    .isLessThan(STRANGER_TIMEOUT);
            assertThat(client.get("x")).isNull();
            assertThat(c.replica("n3").stateMachine(0).store().get(utf8("k0"), System.currentTimeMillis()))
                    .as("the replica with a foreign certificate got nothing").isNull();
            assertThat(c.replica("n3").leaderOf(0)).as("and follows no leader").isNull();
        }
    }
}
