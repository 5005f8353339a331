package io.caskbench.raft.cli;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.Tls;
import io.caskbench.raft.client.ReplicatedBitCask;
import io.caskbench.raft.server.ReplicaConfig;
import io.caskbench.raft.server.ReplicaServer;

import java.io.File;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Threading: the main thread.
 *
 * <p>The command line of {@code bitcask-raft.jar}: {@code server} runs one replica until it is
 * stopped; {@code put}, {@code get} and {@code delete} are a client of a running cluster.
 */
public final class RaftMain {

    private static final String USAGE = String.join("\n",
            "usage:",
            "  java -jar bitcask-raft.jar server --id ID --peers ID=HOST:PORT,... --dir DIR",
            "         [--groups N] [--snapshot-every ENTRIES] [--log-segment-bytes BYTES]",
            "         [--election-timeout-ms MS] [--http HOST:PORT] [--tls-key PEM --tls-cert PEM --tls-ca PEM]",
            "  java -jar bitcask-raft.jar put    --peers ... [--groups N] [--timeout-ms MS] [TLS options] KEY VALUE",
            "  java -jar bitcask-raft.jar get    --peers ... [--groups N] [--timeout-ms MS] [--stale-from ID] KEY",
            "  java -jar bitcask-raft.jar delete --peers ... [--groups N] [--timeout-ms MS] KEY");

    private RaftMain() {
    }

    /** Runs the command; exits 0 on success, 1 on a failed request, 2 on bad usage. */
    public static void main(String[] args) {
        // Ratis logs every setting at INFO; a replica's log keeps warnings and this module's own lines.
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.ratis",
                System.getProperty("org.slf4j.simpleLogger.log.org.apache.ratis", "warn"));
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command and returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        Map<String, String> opts = new HashMap<>();
        List<String> positional = new ArrayList<>();
        try {
            for (int i = 1; i < args.length; i++) {
                if (args[i].startsWith("--")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(args[i] + " needs a value");
                    }
                    opts.put(args[i].substring(2), args[++i]);
                } else {
                    positional.add(args[i]);
                }
            }
            Cluster cluster = Cluster.parse(required(opts, "peers"), Integer.parseInt(opts.getOrDefault("groups", "1")));
            Tls tls = tls(opts);
            switch (args[0]) {
                case "server":
                    return server(cluster, opts, tls, out);
                case "put":
                case "get":
                case "delete":
                    return client(args[0], cluster, opts, tls, positional, out, err);
                default:
                    throw new IllegalArgumentException("unknown command " + args[0]);
            }
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (BitCaskException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    private static int server(Cluster cluster, Map<String, String> opts, Tls tls, PrintStream out) {
        String id = required(opts, "id");
        ReplicaConfig config = ReplicaConfig.of(cluster, id, Path.of(required(opts, "dir")));
        if (opts.containsKey("snapshot-every")) {
            config = config.withSnapshotEvery(Long.parseLong(opts.get("snapshot-every")));
        }
        if (opts.containsKey("log-segment-bytes")) {
            config = config.withLogSegmentBytes(Long.parseLong(opts.get("log-segment-bytes")));
        }
        if (opts.containsKey("election-timeout-ms")) {
            config = config.withElectionTimeout(Duration.ofMillis(Long.parseLong(opts.get("election-timeout-ms"))));
        }
        if (tls != null) {
            config = config.withTls(tls);
        }
        ReplicaServer replica = ReplicaServer.start(config);
        Health health = null;
        if (opts.containsKey("http")) {
            String[] hp = opts.get("http").split(":");
            health = new Health(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), replica, cluster.groups().size());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Health h = health;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (h != null) {
                h.close();
            }
            replica.close();
            stopped.countDown();
        }, "bitcask-raft-stop"));
        out.println("replica " + id + " serving on " + cluster.peers().get(id)
                + (health != null ? ", health on http://" + opts.get("http") + "/ready" : ""));
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static int client(String command, Cluster cluster, Map<String, String> opts, Tls tls,
                              List<String> positional, PrintStream out, PrintStream err) {
        Duration timeout = Duration.ofMillis(Long.parseLong(opts.getOrDefault("timeout-ms", "10000")));
        int expected = command.equals("put") ? 2 : 1;
        if (positional.size() != expected) {
            throw new IllegalArgumentException(command + " takes " + expected + " argument(s)");
        }
        try (ReplicatedBitCask client = ReplicatedBitCask.connect(cluster, timeout, tls)) {
            String key = positional.get(0);
            switch (command) {
                case "put" -> client.put(key, positional.get(1).getBytes(StandardCharsets.UTF_8));
                case "delete" -> out.println(client.delete(key) ? "deleted" : "absent");
                default -> {
                    byte[] v = opts.containsKey("stale-from") ? client.getStale(key, opts.get("stale-from")) : client.get(key);
                    if (v == null) {
                        err.println("absent");
                        return 1;
                    }
                    out.println(new String(v, StandardCharsets.UTF_8));
                }
            }
        }
        return 0;
    }

    private static Tls tls(Map<String, String> opts) {
        if (!opts.containsKey("tls-key") && !opts.containsKey("tls-cert") && !opts.containsKey("tls-ca")) {
            return null;
        }
        return new Tls(new File(required(opts, "tls-key")), new File(required(opts, "tls-cert")),
                new File(required(opts, "tls-ca")));
    }

    private static String required(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }
}
