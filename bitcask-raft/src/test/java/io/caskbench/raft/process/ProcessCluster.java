package io.caskbench.raft.process;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.LocalCluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Threading: the test thread.
 *
 * <p>Replicas as OS processes, each {@code java -jar bitcask-raft.jar server} on free loopback
 * ports with a health endpoint; they can be killed with SIGKILL, paused with SIGSTOP, resumed and
 * started again on the same folder. {@link #close} kills every child.
 */
final class ProcessCluster implements AutoCloseable {

    private static final Pattern LEADER = Pattern.compile("\"leaders\":\\[\"([^\"]+)\"");

    /** The cluster the children form. */
    final Cluster cluster;
    /** Peer ids in order. */
    final List<String> ids = new ArrayList<>();
    /** Health port of each peer. */
    private final Map<String, Integer> healthPorts = new LinkedHashMap<>();
    /** Running (or paused) children by id. */
    private final Map<String, Process> children = new LinkedHashMap<>();
    /** Root of the replicas' folders and logs. */
    private final Path root;
    /** The server jar. */
    private final Path jar;
    /** Extra server options. */
    private final List<String> extra;
    /** For the health endpoints. */
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    ProcessCluster(Path root, int n, List<String> extraServerOptions) {
        this.root = root;
        this.jar = Path.of(System.getProperty("raft.jar", "target/bitcask-raft.jar"));
        this.extra = extraServerOptions;
        StringJoiner peers = new StringJoiner(",");
        for (int i = 1; i <= n; i++) {
            String id = "n" + i;
            ids.add(id);
            peers.add(id + "=127.0.0.1:" + LocalCluster.freePort());
            healthPorts.put(id, LocalCluster.freePort());
        }
        this.cluster = Cluster.parse(peers.toString(), 1);
        ids.forEach(this::start);
    }

    /** Starts (or restarts) replica {@code id} as a child process. */
    void start(String id) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-jar", jar.toAbsolutePath().toString(), "server", "--id", id,
                "--peers", peersOption(), "--dir", root.resolve(id).toString(),
                "--http", "127.0.0.1:" + healthPorts.get(id), "--election-timeout-ms", "1000"));
        cmd.addAll(extra);
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(root.resolve(id + ".log").toFile()))
                    .start();
            children.put(id, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String peersOption() {
        StringJoiner j = new StringJoiner(",");
        cluster.peers().forEach((id, address) -> j.add(id + "=" + address));
        return j.toString();
    }

    /** Kills replica {@code id} with SIGKILL and waits for it to be gone. */
    void kill9(String id) {
        Process p = children.remove(id);
        if (p != null) {
            p.destroyForcibly();
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sends {@code signal} (STOP, CONT) to replica {@code id}. */
    void signal(String id, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(children.get(id).pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + signal + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The leader replica {@code id} sees, or null when it sees none or does not answer. */
    String leaderSeenBy(String id) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPorts.get(id) + "/ready"))
                    .timeout(Duration.ofMillis(1000)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = LEADER.matcher(r.body());
            return r.statusCode() == 200 && m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Waits until replica {@code asker} sees a leader other than {@code not}; that leader's id. */
    String awaitLeader(List<String> askers, String not, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            for (String a : askers) {
                String l = leaderSeenBy(a);
                if (l != null && !l.equals(not) && (a.equals(l) || l.equals(leaderSeenBy(l)))) {
                    return l;
                }
            }
            pause(50);
        }
        throw new AssertionError("no leader other than " + not + " seen by " + askers + " within " + limit);
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Kills every child (resuming paused ones first so that nothing is left stopped). */
    @Override
    public void close() {
        for (String id : new ArrayList<>(children.keySet())) {
            Process p = children.get(id);
            try {
                new ProcessBuilder("kill", "-CONT", Long.toString(p.pid())).start().waitFor(5, TimeUnit.SECONDS);
            } catch (IOException e) {
                // the process may be gone already
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            kill9(id);
        }
    }
}
