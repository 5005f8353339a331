package io.caskbench.raft.server;

import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.client.ReplicatedBatch;
import io.caskbench.raft.client.ReplicatedBitCask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Three Raft groups on three replicas: each key lives in its own group only, through the same client calls. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ShardingTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void threeGroupsOnThreeReplicasEachHoldTheirOwnKeys() {
        try (LocalCluster c = new LocalCluster(dir, 3, 3, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
            for (int g = 0; g < 3; g++) {
                c.awaitLeader(g, WAIT);
            }
            Set<Integer> used = new HashSet<>();
            for (int i = 0; i < 60; i++) {
                client.put("k" + i, utf8("v" + i));
                used.add(client.shardOf(utf8("k" + i)));
            }
            assertThat(used).as("the keys spread over every group").containsExactlyInAnyOrder(0, 1, 2);
            for (int i = 0; i < 60; i++) {
                assertThat(client.get("k" + i)).isEqualTo(utf8("v" + i));
            }
            for (String id : c.ids) {
                LocalCluster.await(id + " catches up", WAIT, () -> Arrays.equals(client.getStale("k59", id), utf8("v59")));
                for (int i = 0; i < 60; i++) {
                    int shard = client.shardOf(utf8("k" + i));
                    for (int g = 0; g < 3; g++) {
                        byte[] local = c.replica(id).stateMachine(g).store().get(utf8("k" + i), System.currentTimeMillis());
                        assertThat(local).as("k%d in group %d on %s", i, g, id).isEqualTo(g == shard ? utf8("v" + i) : null);
                    }
                }
            }
            String a = "k0";
            String other = null;
            for (int i = 1; other == null; i++) {
                if (client.shardOf(utf8("k" + i)) != client.shardOf(utf8(a))) {
                    other = "k" + i;
                }
            }
            String o = other;
            assertThatThrownBy(() -> client.write(new ReplicatedBatch().put(a, utf8("x")).put(o, utf8("y"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one group");
        }
    }
}
