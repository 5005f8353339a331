package io.caskbench.raft.client;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
            c.awaitLeader(0, WAIT);
            c.awaitLeader(1, WAIT);
            // Compared with the replicas' own view at each poll: a leadership may still move after the first election.
            List<List<String>> seen = new ArrayList<>();
            LocalCluster.await("the client names the leaders the replicas hold", WAIT, () -> {
                List<String> expected = Arrays.asList(leaderOf(c, 0), leaderOf(c, 1));
                List<String> named = client.leaders();
                seen.add(named);
                return !expected.contains(null) && named.equals(expected);
            });
            assertThat(seen.get(seen.size() - 1)).doesNotContainNull();

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

    /** The running replica that leads group {@code shard} now, or null. */
    private static String leaderOf(LocalCluster c, int shard) {
        return c.running().stream().filter(r -> r.isLeader(shard)).map(r -> r.id()).findFirst().orElse(null);
    }

    @Test
    void aClosedClientRefuses() {
        ReplicatedBitCask client = ReplicatedBitCask.connect(
                Cluster.parse("n1=127.0.0.1:" + LocalCluster.freePort(), 1), Duration.ofSeconds(1));
        client.close();
        assertThatThrownBy(client::leaders).isInstanceOf(IllegalStateException.class);
    }
}
