package io.caskbench.raft.process;

import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.client.RaftUnavailableException;
import io.caskbench.raft.client.ReplicatedBitCask;
import io.caskbench.raft.lincheck.Porcupine;
import io.caskbench.raft.lincheck.Workload;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three replicas as OS processes under writes from several clients: the leader killed with
 * SIGKILL round after round, and paused with SIGSTOP; nothing acknowledged is lost or changed
 * and the history stays linearizable (checked by Porcupine when go is present).
 * The kill rounds take over a minute: they are tagged {@code raft-long} and run under {@code -Praft-long};
 * {@code -Draft.rounds=N} changes their number (20).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ProcessFailoverIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Tag("raft-long")
    void killingTheLeaderRoundAfterRoundLosesNoAcknowledgedWrite() throws Exception {
        int rounds = Integer.getInteger("raft.rounds", 20);
        long seed = System.nanoTime();
        List<Long> failoverMs = new ArrayList<>();
        try (ProcessCluster c = new ProcessCluster(dir, 3, List.of("--snapshot-every", "400", "--log-segment-bytes", "65536"));
             ReplicatedBitCask probe = ReplicatedBitCask.connect(c.cluster, Duration.ofSeconds(20))) {
            String leader = c.awaitLeader(c.ids, null, WAIT);
            Workload w = new Workload(c.cluster, 3, 4, seed, Duration.ofSeconds(5)).start();
            try {
                for (int round = 0; round < rounds; round++) {
                    int before = w.history.size();
                    LocalCluster.await("writes go on", WAIT, () -> w.history.size() > before + 30);
                    leader = c.awaitLeader(c.ids, null, WAIT);
                    String killed = leader;
                    long t0 = System.nanoTime();
                    c.kill9(killed);
                    List<String> alive = c.ids.stream().filter(id -> !id.equals(killed)).toList();
                    String next = c.awaitLeader(alive, killed, WAIT);
                    String mark = "round-" + round;
                    probe.put(mark, utf8(mark));
                    failoverMs.add((System.nanoTime() - t0) / 1_000_000);
                    c.start(killed);
                    LocalCluster.await(killed + " catches up in round " + round, WAIT,
                            () -> stale(probe, mark, killed));
                    System.out.println("round " + round + ": killed " + killed + ", new leader " + next
                            + ", a write succeeded " + failoverMs.get(round) + " ms after the kill");
                }
            } finally {
                w.stop();
            }
            w.acknowledged.forEach((k, v) -> assertThat(probe.get(k)).as(k).isEqualTo(utf8(v)));
            assertThat(w.acknowledged).as("writes were acknowledged").hasSizeGreaterThan(rounds);
            Collections.sort(failoverMs);
            System.out.println("failover (kill -9 of the leader to the first acknowledged write), ms: min "
                    + failoverMs.get(0) + ", median " + failoverMs.get(failoverMs.size() / 2) + ", max "
                    + failoverMs.get(failoverMs.size() - 1) + " over " + rounds + " rounds; "
                    + w.history.size() + " operations, " + w.acknowledged.size() + " own writes acknowledged, "
                    + w.failures.get() + " calls failed");
            checkLinearizable(w, "kill -9 rounds, seed " + seed);
        }
    }

    @Test
    void aPausedLeaderServesNoStaleReadAndAcknowledgesNoWriteTwice() throws Exception {
        long seed = System.nanoTime();
        try (ProcessCluster c = new ProcessCluster(dir, 3, List.of());
             ReplicatedBitCask probe = ReplicatedBitCask.connect(c.cluster, Duration.ofSeconds(20))) {
            String leader = c.awaitLeader(c.ids, null, WAIT);
            Workload w = new Workload(c.cluster, 3, 3, seed, Duration.ofSeconds(5)).start();
            try {
                LocalCluster.await("writes go on", WAIT, () -> w.history.size() > 50);
                c.signal(leader, "STOP");
                String paused = leader;
                List<String> others = c.ids.stream().filter(id -> !id.equals(paused)).toList();
                String next = c.awaitLeader(others, paused, WAIT);
                int atElection = w.history.size();
                LocalCluster.await("writes go on under " + next, WAIT, () -> w.history.size() > atElection + 100);
                c.signal(paused, "CONT");
                probe.put("after-pause", utf8("1"));
                LocalCluster.await(paused + " catches up", WAIT, () -> stale(probe, "after-pause", paused));
                int atResume = w.history.size();
                LocalCluster.await("writes go on after the resume", WAIT, () -> w.history.size() > atResume + 100);
            } finally {
                w.stop();
            }
            w.acknowledged.forEach((k, v) -> assertThat(probe.get(k)).as(k).isEqualTo(utf8(v)));
            checkLinearizable(w, "SIGSTOP of the leader, seed " + seed);
        }
    }

    private static boolean stale(ReplicatedBitCask probe, String key, String peer) {
        try {
            return Arrays.equals(probe.getStale(key, peer), utf8(key.equals("after-pause") ? "1" : key));
        } catch (RaftUnavailableException e) {
            return false;
        }
    }

    private void checkLinearizable(Workload w, String what) throws Exception {
        if (!Porcupine.available()) {
            System.out.println("go is not on the PATH: the history of " + what + " was not checked for linearizability");
            return;
        }
        Path file = dir.resolve("history.json");
        w.history.write(file);
        Porcupine.Result r = Porcupine.check(file);
        System.out.println(what + ": " + r.output());
        assertThat(r.verdict()).as(what + ": " + r.output()).isEqualTo(Porcupine.Verdict.LINEARIZABLE);
    }
}
