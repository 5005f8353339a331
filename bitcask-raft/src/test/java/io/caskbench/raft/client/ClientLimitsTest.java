package io.caskbench.raft.client;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.RaftLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client refuses keys, values and writes over the replicated store's limits before it sends
 * anything. No replica listens on the cluster's ports: a call that went to the network would end
 * in a {@link RaftUnavailableException} instead.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientLimitsTest {

    private static Cluster nowhere() {
        return Cluster.parse("n1=127.0.0.1:" + LocalCluster.freePort() + ",n2=127.0.0.1:" + LocalCluster.freePort()
                + ",n3=127.0.0.1:" + LocalCluster.freePort(), 1);
    }

    @Test
    void aValueOrABatchOverTheLimitIsRefused() {
        try (ReplicatedBitCask client = ReplicatedBitCask.connect(nowhere(), Duration.ofSeconds(2))) {
            byte[] tooLarge = new byte[RaftLimits.MAX_VALUE_BYTES + 1];
            assertThatThrownBy(() -> client.put("k", tooLarge)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("value of " + tooLarge.length + " bytes: at most " + RaftLimits.MAX_VALUE_BYTES);
            assertThatThrownBy(() -> client.write(new ReplicatedBatch().put("k", utf8("v")).put("big", tooLarge)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value of");
            byte[] half = new byte[RaftLimits.MAX_VALUE_BYTES / 2 + (32 << 10)];
            assertThatThrownBy(() -> client.write(new ReplicatedBatch().put("a", half).put("b", half)))
                    .as("two values within the limit, together over the write's")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at most " + RaftLimits.MAX_WRITE_BYTES);
        }
    }
}
