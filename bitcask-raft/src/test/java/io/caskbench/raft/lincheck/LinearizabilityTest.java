package io.caskbench.raft.lincheck;

import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.client.ReplicatedBitCask;
import io.caskbench.raft.server.ReplicaStore;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Histories of concurrent clients checked by Porcupine: linearizable through the client, and a
 * negative control that reads a follower's local store as if it were linearizable, which the
 * checker must catch.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class LinearizabilityTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @BeforeAll
    static void needsGo() {
        Assumptions.assumeTrue(Porcupine.available(),
                "go is not on the PATH: the linearizability checker (Porcupine, a Go module) cannot be built");
    }

    @Test
    void historiesThroughTheClientAreLinearizableAcrossALeaderRestart() throws Exception {
        long seed = System.nanoTime();
        try (LocalCluster c = new LocalCluster(dir.resolve("cluster"), 3, 1, cfg -> cfg)) {
            c.awaitLeader(0, WAIT);
            Workload w = new Workload(c.cluster, 4, 3, seed, Duration.ofSeconds(5)).start();
            LocalCluster.await("a first stretch of history", WAIT, () -> w.history.size() > 150);
            String leader = c.awaitLeader(0, WAIT);
            c.stop(leader);
            int atStop = w.history.size();
            LocalCluster.await("the workload goes on under a new leader", WAIT, () -> w.history.size() > atStop + 150);
            c.start(leader);
            LocalCluster.await("a last stretch", WAIT, () -> w.history.size() > atStop + 300);
            w.stop();

            Path file = dir.resolve("history.json");
            w.history.write(file);
            Porcupine.Result r = Porcupine.check(file);
            System.out.println("through the client, seed " + seed + ": " + r.output());
            assertThat(r.verdict()).as("seed %d: %s", seed, r.output()).isEqualTo(Porcupine.Verdict.LINEARIZABLE);
            try (ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
                w.acknowledged.forEach((k, v) -> assertThat(client.get(k)).as(k).isEqualTo(v.getBytes(StandardCharsets.UTF_8)));
            }
        }
    }

    @Test
    void readsFromAFollowersLocalStoreAsIfLinearizableAreCaught() throws Exception {
        try (LocalCluster c = new LocalCluster(dir.resolve("cluster"), 3, 1, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
            String leader = c.awaitLeader(0, WAIT);
            String follower = c.ids.stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
            ReplicaStore followerStore = c.replica(follower).stateMachine(0).store();
            History h = new History();
            boolean sawStale = false;
            // A follower applies an entry only after the leader acknowledged it, so a read of its
            // store right after a write soon returns an older value; stop once that happened.
            for (int i = 0; i < 2_000 && !sawStale; i++) {
                String value = "v" + i;
                h.put(0, "k", value, () -> client.put("k", Workload.bytes(value)));
                String read = h.get(1, "k", () -> Workload.string(followerStore.get(Workload.bytes("k"), System.currentTimeMillis())));
                sawStale = !value.equals(read);
            }
            assertThat(sawStale).as("a follower's store lagged behind an acknowledged write").isTrue();

            Path file = dir.resolve("history.json");
            h.write(file);
            Porcupine.Result r = Porcupine.check(file);
            System.out.println("negative control, follower-local reads: " + r.output());
            assertThat(r.verdict()).as(r.output()).isEqualTo(Porcupine.Verdict.NOT_LINEARIZABLE);
        }
    }
}
