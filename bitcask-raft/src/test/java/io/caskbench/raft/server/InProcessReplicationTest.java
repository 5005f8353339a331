package io.caskbench.raft.server;

import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.client.RaftUnavailableException;
import io.caskbench.raft.client.ReplicatedBatch;
import io.caskbench.raft.client.ReplicatedBitCask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Three replicas in one JVM: writes through the leader read back from every replica. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class InProcessReplicationTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void writesThroughTheLeaderReadBackFromEveryReplica() {
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
            c.awaitLeader(0, WAIT);
            for (int i = 0; i < 50; i++) {
                client.put("k" + i, utf8("v" + i));
            }
            client.put("ttl", utf8("soon gone"), Duration.ofMillis(300));
            assertThat(client.delete("k0")).isTrue();
            assertThat(client.delete("k0")).isFalse();
            client.write(new ReplicatedBatch().put("a", utf8("1")).put("b", utf8("2")).delete("k1"));

            assertThatThrownBy(() -> client.put(new byte[5000], utf8("v")))
                    .as("the leader refuses what the stores could not apply").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("key of 5000 bytes");
            assertThat(client.get("k5")).isEqualTo(utf8("v5"));
            assertThat(client.get("k0")).isNull();
            assertThat(client.get("a")).isEqualTo(utf8("1"));
            for (String id : c.ids) {
                LocalCluster.await(id + " catches up", WAIT, () -> java.util.Arrays.equals(client.getStale("b", id), utf8("2")));
                assertThat(client.getStale("k49", id)).isEqualTo(utf8("v49"));
                assertThat(client.getStale("k1", id)).isNull();
                assertThat(client.getStale("k0", id)).isNull();
            }
            LocalCluster.await("the TTL passes", WAIT, () -> client.get("ttl") == null);
            for (String id : c.ids) {
                assertThat(client.getStale("ttl", id)).isNull();
            }
        }
    }

    @Test
    void minorityDownWritesGoOnMajorityDownFailsClearlyThenRecovers() {
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(3))) {
            String leader = c.awaitLeader(0, WAIT);
            client.put("before", utf8("1"));
            String follower = c.ids.stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
            c.stop(follower);
            client.put("minority-down", utf8("2"));
            assertThat(client.get("minority-down")).isEqualTo(utf8("2"));

            String other = c.ids.stream().filter(id -> !id.equals(leader) && !id.equals(follower)).findFirst().orElseThrow();
            c.stop(other);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> client.put("majority-down", utf8("3"))).isInstanceOf(RaftUnavailableException.class)
                    .hasMessageContaining("no majority");
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(tookMs).as("fails within the timeout and a margin").isLessThan(3_000 + 3_000);

            c.start(follower);
            c.start(other);
            c.awaitLeader(0, WAIT);
            LocalCluster.await("writes succeed again", WAIT, () -> {
                try {
                    client.put("after", utf8("4"));
                    return true;
                } catch (RaftUnavailableException e) {
                    return false;
                }
            });
            assertThat(client.get("before")).isEqualTo(utf8("1"));
            assertThat(client.get("minority-down")).isEqualTo(utf8("2"));
            assertThat(client.get("after")).isEqualTo(utf8("4"));
        }
    }

    @Test
    void aWriteRetriedAcrossALostMajorityIsAppliedOnce() throws Exception {
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(15))) {
            String leader = c.awaitLeader(0, WAIT);
            client.put("warm", utf8("0"));
            long before = c.replica(leader).stateMachine(0).appliedCommands();
            List<String> followers = c.ids.stream().filter(id -> !id.equals(leader)).toList();
            for (String f : followers) {
                // A follower stopped before applying "warm" would apply it again after its restart.
                LocalCluster.await(f + " applies the first write", WAIT,
                        () -> java.util.Arrays.equals(client.getStale("warm", f), utf8("0")));
            }
            followers.forEach(c::stop);

            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> client.put("once", utf8("1")));
            // Each attempt gives up after 1 s: by the time the followers return, the request was sent again.
            Thread.sleep(2_500);
            assertThat(write).isNotDone();
            followers.forEach(c::start);
            write.get(20, TimeUnit.SECONDS);

            assertThat(client.get("once")).isEqualTo(utf8("1"));
            assertThat(c.replica(leader).stateMachine(0).appliedCommands() - before)
                    .as("the retried write entered the log once").isEqualTo(1);
            for (String f : followers) {
                LocalCluster.await(f + " applies it", WAIT, () -> c.replica(f).stateMachine(0).appliedCommands() >= 1);
                assertThat(c.replica(f).stateMachine(0).appliedCommands()).as(f).isEqualTo(1);
            }
        }
    }
}
