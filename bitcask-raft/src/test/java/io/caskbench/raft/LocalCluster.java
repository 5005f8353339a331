package io.caskbench.raft;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Threading: the test thread.
 *
 * <p>Replicas of one cluster inside the test's JVM, on free loopback ports, each in a folder of
 * its own; replicas can be stopped and started again on the same folder and port.
 */
public final class LocalCluster implements AutoCloseable {

    /** The cluster. */
    public final Cluster cluster;
    /** Peer ids in order. */
    public final List<String> ids = new ArrayList<>();
    /** Running replicas by id; stopped ones are absent. */
    private final Map<String, ReplicaServer> running = new LinkedHashMap<>();
    /** Root of the replicas' folders. */
    private final Path root;
    /** Adjusts each replica's configuration. */
    private final UnaryOperator<ReplicaConfig> tune;

    /** Starts {@code n} replicas serving {@code groups} groups under {@code root}. */
    public LocalCluster(Path root, int n, int groups, UnaryOperator<ReplicaConfig> tune) {
        this.root = root;
        this.tune = tune;
        StringJoiner peers = new StringJoiner(",");
        for (int i = 1; i <= n; i++) {
            ids.add("n" + i);
            peers.add("n" + i + "=127.0.0.1:" + freePort());
        }
        this.cluster = Cluster.parse(peers.toString(), groups);
        for (String id : ids) {
            start(id);
        }
    }

    /** A free TCP port on 127.0.0.1. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The UTF-8 bytes of {@code s}. */
    public static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The configuration replica {@code id} runs with. */
    public ReplicaConfig config(String id) {
        return tune.apply(ReplicaConfig.of(cluster, id, root.resolve(id)).withElectionTimeout(Duration.ofMillis(500)));
    }

    /** Starts replica {@code id}. */
    public ReplicaServer start(String id) {
        ReplicaServer r = ReplicaServer.start(config(id));
        running.put(id, r);
        return r;
    }

    /** Stops replica {@code id}. */
    public void stop(String id) {
        ReplicaServer r = running.remove(id);
        if (r != null) {
            r.close();
        }
    }

    /** Replica {@code id}, which must be running. */
    public ReplicaServer replica(String id) {
        ReplicaServer r = running.get(id);
        if (r == null) {
            throw new IllegalStateException(id + " is not running");
        }
        return r;
    }

    /** The running replicas. */
    public List<ReplicaServer> running() {
        return new ArrayList<>(running.values());
    }

    /** Waits until a running replica leads group {@code shard}; its id. */
    public String awaitLeader(int shard, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            for (ReplicaServer r : running.values()) {
                if (r.isLeader(shard)) {
                    return r.id();
                }
            }
            pause(20);
        }
        throw new AssertionError("no leader of group " + shard + " within " + limit);
    }

    /** A client with the given timeout. */
    public ReplicatedBitCask client(Duration timeout) {
        return ReplicatedBitCask.connect(cluster, timeout);
    }

    /** Waits until {@code condition} holds; fails after {@code limit}. */
    public static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + limit + ": " + what);
            }
            pause(20);
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Stops every replica. */
    @Override
    public void close() {
        for (String id : new ArrayList<>(running.keySet())) {
            stop(id);
        }
    }
}
