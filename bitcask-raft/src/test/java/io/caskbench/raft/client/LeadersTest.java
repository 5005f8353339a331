package io.caskbench.raft.client;

import io.caskbench.raft.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link ReplicatedBitCask#leaders()} reports as replicas come and go. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LeadersTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void namesEachGroupsLeaderAndNoneOnceTheMajorityIsGone() {
        try (LocalCluster c = new LocalCluster(dir, 3, 2, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(5))) {
            String first = c.awaitLeader(0, WAIT);
            String second = c.awaitLeader(1, WAIT);
            LocalCluster.await("every replica knows the leaders", WAIT,
                    () -> client.leaders().equals(Arrays.asList(first, second)));

            String survivor = c.ids.get(0);
            for (String id : c.ids.subList(1, 3)) {
                c.stop(id);
            }
            // The survivor names the old leader until its election timeout passes, then none.
            LocalCluster.await("no leader without a majority", WAIT,
                    () -> client.leaders().equals(Arrays.asList(null, null)));
            assertThat(c.replica(survivor).ready()).isFalse();
        }
    }

    @Test
    void aClosedClientRefuses() {
        ReplicatedBitCask client = ReplicatedBitCask.connect(
                io.caskbench.raft.Cluster.parse("n1=127.0.0.1:" + LocalCluster.freePort(), 1), Duration.ofSeconds(1));
        client.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(client::leaders).isInstanceOf(IllegalStateException.class);
    }
}
