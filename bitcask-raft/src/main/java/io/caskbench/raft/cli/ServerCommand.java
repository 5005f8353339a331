package io.caskbench.raft.cli;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.Tls;
import io.caskbench.raft.server.ReplicaConfig;
import io.caskbench.raft.server.ReplicaServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Threading: the main thread; the shutdown hook stops the replica.
 *
 * <p>{@code bitcask-raft server}: runs one replica until the process is stopped (SIGTERM closes
 * its stores first).
 */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Run one replica until the process is stopped (SIGTERM closes its stores).",
                "It binds the host and port --peers gives for its --id."})
final class ServerCommand implements Callable<Integer> {

    /** Set by picocli. */
    @Spec
    CommandSpec spec;

    /** Set by picocli. */
    @Mixin
    ClusterOptions clusterOptions;

    /** Set by picocli. */
    @Option(names = "--id", required = true, paramLabel = "ID", description = "This replica's id, one of --peers.")
    String id;

    /** Set by picocli. */
    @Option(names = "--dir", required = true, paramLabel = "DIR",
            description = "This replica's folder: its Raft log, snapshots and stores, one subfolder per group.")
    Path dir;

    /** Set by picocli. */
    @Option(names = "--snapshot-every", paramLabel = "ENTRIES", defaultValue = "100000",
            description = "Applied entries between snapshots; the log is purged up to each. Default: ${DEFAULT-VALUE}.")
    long snapshotEvery;

    /** Set by picocli. */
    @Option(names = "--log-segment-bytes", paramLabel = "BYTES", defaultValue = "8388608",
            description = "Size of a Raft log segment; only whole closed segments are purged. Default: ${DEFAULT-VALUE} (8 MiB).")
    long logSegmentBytes;

    /** Set by picocli. */
    @Option(names = "--election-timeout-ms", paramLabel = "MS", defaultValue = "1000",
            description = "The shortest election timeout; the longest is twice it. Default: ${DEFAULT-VALUE}.")
    long electionTimeoutMs;

    /** Set by picocli. */
    @Option(names = "--http", paramLabel = "HOST:PORT",
            description = "Serve GET /health and GET /ready on this address.")
    String http;

    @Override
    public Integer call() {
        Cluster cluster = clusterOptions.cluster();
        Tls tls = clusterOptions.tls();
        ReplicaConfig config = ReplicaConfig.of(cluster, id, dir)
                .withSnapshotEvery(snapshotEvery)
                .withLogSegmentBytes(logSegmentBytes)
                .withElectionTimeout(Duration.ofMillis(electionTimeoutMs));
        if (tls != null) {
            config = config.withTls(tls);
        }
        InetSocketAddress healthAddress = http == null ? null : address(http);
        ReplicaServer replica = ReplicaServer.start(config);
        Health health;
        try {
            health = healthAddress == null ? null : new Health(healthAddress, replica, cluster.groups().size());
        } catch (RuntimeException e) {
            replica.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (health != null) {
                health.close();
            }
            replica.close();
            stopped.countDown();
        }, "bitcask-raft-stop"));
        PrintWriter out = spec.commandLine().getOut();
        out.println("replica " + id + " serving on " + cluster.peers().get(id)
                + (health != null ? ", health on http://" + http + "/ready" : ""));
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return RaftMain.OK;
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || !hostPort.substring(colon + 1).matches("\\d{1,5}")) {
            throw new IllegalArgumentException("--http must be HOST:PORT, not '" + hostPort + "'");
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}
