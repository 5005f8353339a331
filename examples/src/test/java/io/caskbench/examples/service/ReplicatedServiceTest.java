package io.caskbench.examples.service;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.client.ReplicatedBitCask;
import io.caskbench.raft.server.ReplicaConfig;
import io.caskbench.raft.server.ReplicaServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.caskbench.examples.service.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service started with {@code --raft-peers}, serving a store replicated by three replicas in this JVM on
 * loopback, driven over HTTP: objects written through it are on every replica, readiness follows whether the
 * replicas name a leader, and requests without a majority get a 503 instead of hanging.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicatedServiceTest {

    private static final String MD5 = "9e107d9d372bb6826bd81d3542a419d6";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final HttpRequest.BodyPublisher NONE = HttpRequest.BodyPublishers.noBody();

    @TempDir
    Path dir;

    /** The running replicas by id; the test thread only. */
    private final Map<String, ReplicaServer> replicas = new LinkedHashMap<>();
    private Cluster cluster;
    private ObjectMetaServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        replicas.values().forEach(ReplicaServer::close);
    }

    @Test
    void servesObjectsFromTheReplicasAndIsReadyOnlyWhileTheyHaveALeader() throws IOException {
        StringJoiner peers = new StringJoiner(",");
        for (int i = 1; i <= 3; i++) {
            peers.add("n" + i + "=127.0.0.1:" + freePort());
        }
        cluster = Cluster.parse(peers.toString(), 1);
        cluster.peers().keySet().forEach(this::startReplica);
        CommandLine cli = ObjectMetaService.commandLine();
        cli.parseArgs("--raft-peers", peers.toString(), "--port", "0", "--data-dir", dir.resolve("unused").toString());
        ObjectMetaService service = cli.getCommand();
        server = service.listen();
        server.awaitOpen();
        ApiClient api = new ApiClient(server.uri());
        await("ready once a leader is elected", () -> api.send("GET", "/ready", NONE, null).status() == 200);

        assertThat(api.put("photos", "cat.png", body(1234, MD5, "image/png")).status()).isEqualTo(201);
        assertThat(api.put("photos", "cat.png", body(99, MD5, "image/png")).status()).isEqualTo(200);
        assertThat(api.put("photos", "gone.png", body(1, MD5, "image/png")).status()).isEqualTo(201);
        assertThat(api.delete("photos", "gone.png").status()).isEqualTo(204);
        ApiClient.Reply read = api.get("photos", "cat.png");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("size").asLong()).isEqualTo(99);
        assertThat(api.get("photos", "gone.png").status()).isEqualTo(404);
        assertThat(api.list("photos", "").status()).as("no key scan on a replicated store").isEqualTo(501);
        ApiClient.Reply stats = api.stats();
        assertThat(stats.status()).isEqualTo(501);
        assertThat(stats.json().get("title").asText()).isEqualTo("Not Implemented");
        assertThat(dir.resolve("unused")).as("no store of its own").doesNotExist();

        try (ReplicatedBitCask direct = ReplicatedBitCask.connect(cluster, WAIT)) {
            for (String id : cluster.peers().keySet()) {
                await(id + " holds the object", () -> direct.getStale("photos/cat.png", id) != null);
                assertThat(direct.getStale("photos/gone.png", id)).isNull();
            }
        }

        for (String id : new String[] {"n2", "n3"}) {
            replicas.remove(id).close();
        }
        await("not ready without a majority", () -> api.send("GET", "/ready", NONE, null).status() == 503);
        assertThat(api.send("GET", "/ready", NONE, null).body()).contains("NO_LEADER");
        assertThat(api.send("GET", "/health", NONE, null).status()).as("alive all the same").isEqualTo(200);
        ApiClient.Reply refused = api.put("photos", "late.png", body(5, MD5, "image/png"));
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.raw().headers().firstValue("Retry-After")).hasValue("1");

        startReplica("n2");
        startReplica("n3");
        await("ready again", () -> api.send("GET", "/ready", NONE, null).status() == 200);
        assertThat(api.get("photos", "cat.png").json().get("size").asLong()).isEqualTo(99);
    }

    private void startReplica(String id) {
        ReplicaConfig config = ReplicaConfig.of(cluster, id, dir.resolve(id)).withElectionTimeout(Duration.ofMillis(500));
        replicas.put(id, ReplicaServer.start(config));
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until {@code condition} holds, polling; fails after {@link #WAIT}. */
    private static void await(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - end).as("not within " + WAIT + ": " + what).isNegative();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
