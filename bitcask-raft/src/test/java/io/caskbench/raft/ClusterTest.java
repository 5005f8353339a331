package io.caskbench.raft;

import org.junit.jupiter.api.Test;


import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The peer list and the key-to-group function. */
class ClusterTest {

    @Test
    void keysGoToTheSameGroupInEveryVersion() {
        Cluster c = Cluster.parse("n1=127.0.0.1:7001,n2=127.0.0.1:7002,n3=127.0.0.1:7003", 3);
        // CRC32C of the key's bytes modulo the group count: fixed values, so a change is noticed.
        assertThat(c.shardOf(utf8("a"))).isEqualTo(0);
        assertThat(c.shardOf(utf8("k0"))).isEqualTo(1);
        assertThat(c.shardOf(utf8("user:42"))).isEqualTo(2);
        assertThat(Cluster.groupId(0)).isEqualTo(Cluster.groupId(0)).isNotEqualTo(Cluster.groupId(1));
        assertThat(Cluster.groupId(0).getUuid().toString()).isEqualTo("0f6062c1-1a88-338e-aa56-5575a5c9984c");
    }

    @Test
    void aBadPeerListIsRefusedWithItsReason() {
        assertThatThrownBy(() -> Cluster.parse("n1=127.0.0.1", 1)).hasMessageContaining("id=host:port");
        assertThatThrownBy(() -> Cluster.parse("n1=127.0.0.1:1,n1=127.0.0.1:2", 1)).hasMessageContaining("twice");
        assertThatThrownBy(() -> Cluster.parse("n1=127.0.0.1:1", 0)).hasMessageContaining("groups");
        Cluster c = Cluster.parse("n1=127.0.0.1:7001", 1);
        assertThat(c.host("n1")).isEqualTo("127.0.0.1");
        assertThat(c.port("n1")).isEqualTo(7001);
        assertThatThrownBy(() -> c.port("n9")).hasMessageContaining("no peer n9");
    }
}
