package io.caskbench.bench.replicated;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.client.ReplicatedBatch;
import io.caskbench.raft.client.ReplicatedBitCask;
import io.caskbench.raft.server.ReplicaConfig;
import io.caskbench.raft.server.ReplicaServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Replicas of a Raft cluster in this JVM on free loopback ports (127.0.0.1), each in its own folder under
 * the benchmark's, and one client of them: the replicated target. Started and stopped by the trial's
 * set-up and tear-down, so no start, election or fill is timed.
 */
final class LoopbackCluster implements Target {

    /** How long the set-up waits for a leader of every group and for the fill's calls. */
    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    /** Keys per batch of the fill. */
    private static final int FILL_BATCH = 100;

    /** The running replicas; touched by the set-up and tear-down thread only. */
    private final List<ReplicaServer> replicas = new ArrayList<>();
    /** The client every benchmark thread calls; thread-safe. */
    private final ReplicatedBitCask client;
    /** The groups the keys are spread over. */
    private final int groups;

    /** Starts {@code replicaCount} replicas serving {@code groups} groups under {@code dir} and waits for leaders. */
    LoopbackCluster(Path dir, int replicaCount, int groups) {
        this.groups = groups;
        StringJoiner peers = new StringJoiner(",");
        for (int i = 1; i <= replicaCount; i++) {
            peers.add("n" + i + "=127.0.0.1:" + freePort());
        }
        Cluster cluster = Cluster.parse(peers.toString(), groups);
        try {
            for (String id : cluster.peers().keySet()) {
                replicas.add(ReplicaServer.start(ReplicaConfig.of(cluster, id, dir.resolve(id))));
            }
            awaitLeaders();
        } catch (RuntimeException | Error e) {
            stopReplicas();
            throw e;
        }
        this.client = ReplicatedBitCask.connect(cluster, START_LIMIT);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        client.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return client.get(key);
    }

    /** Writes the keys in batches of up to {@value #FILL_BATCH}, each batch within one group. */
    @Override
    public void fill(byte[][] keys, byte[] value) {
        List<List<byte[]>> byGroup = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            byGroup.add(new ArrayList<>());
        }
        for (byte[] key : keys) {
            byGroup.get(client.shardOf(key)).add(key);
        }
        for (List<byte[]> group : byGroup) {
            for (int from = 0; from < group.size(); from += FILL_BATCH) {
                ReplicatedBatch batch = new ReplicatedBatch();
                for (byte[] key : group.subList(from, Math.min(group.size(), from + FILL_BATCH))) {
                    batch.put(key, value);
                }
                client.write(batch);
            }
        }
    }

    /** Waits until every replica sees a leader of every group, so the first timed call finds one. */
    private void awaitLeaders() {
        long end = System.nanoTime() + START_LIMIT.toNanos();
        while (!replicas.stream().allMatch(ReplicaServer::ready)) {
            if (System.nanoTime() - end > 0) {
                throw new BitCaskException("no leader of every group within " + START_LIMIT);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BitCaskException("interrupted while waiting for a leader", e);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the client, then every replica. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            stopReplicas();
        }
    }

    private void stopReplicas() {
        RuntimeException first = null;
        for (ReplicaServer r : replicas) {
            try {
                r.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        replicas.clear();
        if (first != null) {
            throw first;
        }
    }
}
