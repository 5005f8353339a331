package io.caskbench.raft.server;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.client.ReplicatedBitCask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/** Snapshots: taken by checkpoint, the log purged behind them, installed on a follower the log has left behind, used at restart. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SnapshotCatchUpTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WRITES = 400;

    @TempDir
    Path dir;

    private Path groupDir(String id) {
        return dir.resolve(id).resolve(Cluster.groupId(0).getUuid().toString());
    }

    private List<String> logSegments(String id) throws IOException {
        try (Stream<Path> s = Files.list(groupDir(id).resolve("current"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("log_")).sorted().toList();
        }
    }

    @Test
    void followerBehindThePurgedLogCatchesUpFromASnapshot() throws IOException {
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg.withSnapshotEvery(50).withLogSegmentBytes(4096));
             ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
            String leader = c.awaitLeader(0, WAIT);
            client.put("first", utf8("0"));
            String behind = c.ids.stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
            c.stop(behind);
            for (int i = 0; i < WRITES; i++) {
                client.put("k" + i, utf8("v" + i));
            }
            String nowLeader = c.awaitLeader(0, WAIT);
            BitCaskStateMachine sm = c.replica(nowLeader).stateMachine(0);
            assertThat(sm.getLatestSnapshot()).as("the leader took a snapshot").isNotNull();
            assertThat(logSegments(nowLeader)).as("the leader purged its log's start")
                    .noneMatch(n -> n.startsWith("log_0-"));

            ReplicaServer back = c.start(behind);
            LocalCluster.await("the follower catches up", WAIT,
                    () -> Arrays.equals(client.getStale("k" + (WRITES - 1), behind), utf8("v" + (WRITES - 1))));
            for (int i = 0; i < WRITES; i += 37) {
                assertThat(client.getStale("k" + i, behind)).isEqualTo(utf8("v" + i));
            }
            assertThat(client.getStale("first", behind)).isEqualTo(utf8("0"));
            assertThat(back.stateMachine(0).appliedCommands())
                    .as("most writes came with the snapshot, not by applying the log")
                    .isLessThan(WRITES / 2);
        }
    }

    @Test
    void aReplicaThatLostItsStoreRestoresItFromItsSnapshotAtRestart() {
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg.withSnapshotEvery(50).withLogSegmentBytes(4096));
             ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
            c.awaitLeader(0, WAIT);
            for (int i = 0; i < 120; i++) {
                client.put("k" + i, utf8("v" + i));
            }
            String victim = c.ids.get(2);
            LocalCluster.await(victim + " has a snapshot", WAIT,
                    () -> c.replica(victim).stateMachine(0).getLatestSnapshot() != null
                            && Arrays.equals(client.getStale("k119", victim), utf8("v119")));
            c.stop(victim);
            ReplicaStore.deleteTree(groupDir(victim).resolve("bitcask"));
            c.start(victim);
            LocalCluster.await("the restarted replica has every key", WAIT,
                    () -> Arrays.equals(client.getStale("k119", victim), utf8("v119")));
            for (int i = 0; i < 120; i++) {
                assertThat(client.getStale("k" + i, victim)).isEqualTo(utf8("v" + i));
            }
        }
    }
}
