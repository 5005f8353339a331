package io.caskbench.raft.client;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.RaftLimits;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
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
    void anOverLongKeyIsRefusedByEveryCallAlike() {
        try (ReplicatedBitCask client = ReplicatedBitCask.connect(nowhere(), Duration.ofSeconds(2))) {
            for (int length : new int[] {RaftLimits.MAX_KEY_BYTES + 1, 65_534, 65_535, 70_000}) {
                byte[] key = new byte[length];
                Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
                calls.put("get", () -> client.get(key));
                calls.put("stale get", () -> client.getStale(key, "n2"));
                calls.put("put", () -> client.put(key, utf8("v")));
                calls.put("TTL put", () -> client.put(key, utf8("v"), Duration.ofMinutes(1)));
                calls.put("delete", () -> client.delete(key));
                calls.put("batch", () -> client.write(new ReplicatedBatch().put(key, utf8("v"))));
                calls.forEach((what, call) -> assertThatThrownBy(call).as("%s of a %d-byte key", what, length)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("key of " + length + " bytes")
                        .hasMessageContaining("1 to " + RaftLimits.MAX_KEY_BYTES));
            }
            assertThatThrownBy(() -> client.get(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        }
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
