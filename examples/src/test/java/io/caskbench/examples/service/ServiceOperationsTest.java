package io.caskbench.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.MergeResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.caskbench.examples.service.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What an operator relies on, over real HTTP on loopback: liveness and readiness while the store
 * opens and while the server drains, Prometheus metrics, {@code Retry-After} on 503, listings past
 * the first page, and a port clash that names the port.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard for a loaded machine, not a speed limit
class ServiceOperationsTest {

    private static final String MD5 = "9e107d9d372bb6826bd81d3542a419d6";

    @TempDir
    Path dir;

    private final List<ObjectMetaServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(ObjectMetaServer::close);
    }

    @Test
    void notReadyWhileTheStoreOpensButAlive() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ObjectMetaServer server = track(ObjectMetaServer.listen(ServiceConfig.defaults(dir), c -> {
            await(release);
            return ObjectStore.open(c.dataDir(), c.storeOptions());
        }));
        ApiClient client = new ApiClient(server.uri());

        assertThat(get(client, "/health").status()).isEqualTo(200);
        ApiClient.Reply ready = get(client, "/ready");
        assertThat(ready.status()).isEqualTo(503);
        assertThat(ready.json().get("status").asText()).isEqualTo("OPENING");
        assertThat(ready.raw().headers().firstValue("Retry-After")).hasValue("1");
        ApiClient.Reply object = client.get("photos", "a.png");
        assertThat(object.status()).isEqualTo(503);
        assertThat(object.raw().headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(object.raw().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(object.json().get("detail").asText()).isEqualTo("the store is still opening");
        assertThat(get(client, "/metrics").body()).as("no store meters before it opens").doesNotContain("bitcask_keys");

        release.countDown();
        server.awaitOpen();
        assertThat(get(client, "/ready").status()).isEqualTo(200);
        assertThat(get(client, "/ready").json().get("status").asText()).isEqualTo("READY");
        assertThat(client.put("photos", "a.png", body(1, MD5, "image/png")).status()).isEqualTo(201);
    }

    @Test
    void aStoreThatCannotOpenClosesTheServerAndSaysWhy() throws IOException {
        ObjectMetaServer server = track(ObjectMetaServer.listen(ServiceConfig.defaults(dir), c -> {
            throw new IllegalStateException("disk on fire");
        }));
        assertThatThrownBy(server::awaitOpen).isInstanceOf(IllegalStateException.class).hasMessage("disk on fire");
    }

    @Test
    void drainingAnswers503WithRetryAfterAndReportsNotReady() throws Exception {
        ServiceConfig d = ServiceConfig.defaults(dir);
        // A grace period long enough for the checks below on a loaded machine; Retry-After repeats it.
        ObjectMetaServer server = track(ObjectMetaServer.start(new ServiceConfig(d.dataDir(), d.bind(), 0, d.backend(),
                d.syncPolicy(), d.threads(), d.queueCapacity(), d.maxBodyBytes(), Duration.ofSeconds(90), d.mergeCheck())));
        ApiClient client = new ApiClient(server.uri());
        String json = body(1, MD5, "image/png");
        try (Socket slow = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
            // A PUT whose body is only half sent keeps one request in progress, so close() has to drain.
            OutputStream out = slow.getOutputStream();
            out.write(("PUT /buckets/photos/objects/slow.png HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + json.length() + "\r\n\r\n" + json.substring(0, 10)).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            waitFor(() -> server.requestsInProgress() > 0);
            CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
            waitFor(() -> get(client, "/ready").status() == 503);

            ApiClient.Reply ready = get(client, "/ready");
            assertThat(ready.json().get("status").asText()).isEqualTo("DRAINING");
            assertThat(ready.raw().headers().firstValue("Retry-After")).hasValue("90");
            ApiClient.Reply refused = client.get("photos", "a.png");
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.raw().headers().firstValue("Retry-After")).hasValue("90");
            assertThat(refused.json().get("detail").asText()).isEqualTo("shutting down");
            assertThat(get(client, "/health").status()).isEqualTo(200);

            out.write(json.substring(10).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new BufferedReader(new InputStreamReader(slow.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            assertThat(status).as("the request in progress finished").isEqualTo("HTTP/1.1 201 Created");
            closing.get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void metricsArePrometheusTextWithRoutesStatusesLatencyAndStoreFigures() throws IOException {
        ObjectMetaServer server = track(ObjectMetaServer.start(ServiceConfig.defaults(dir)));
        ApiClient client = new ApiClient(server.uri());
        client.put("photos", "a.png", body(1, MD5, "image/png"));
        client.put("photos", "b.png", body(1, MD5, "image/png"));
        client.put("photos", "a.png", body(2, MD5, "image/png"));
        client.get("photos", "nope.png");
        get(client, "/no/such/path");
        client.send("BREW", "/buckets/photos/objects/a.png", BodyPublishers.noBody(), null);

        ApiClient.Reply metrics = get(client, "/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.raw().headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        String text = metrics.body();
        String store = "store=\"" + dir.getFileName() + "\"";
        String put = "method=\"PUT\",route=\"/buckets/{bucket}/objects/{key}\"";
        assertThat(text)
                .contains("# TYPE http_server_requests_seconds histogram")
                .contains("http_server_requests_seconds_count{" + put + ",status=\"201\"} 2")
                .contains("http_server_requests_seconds_count{" + put + ",status=\"200\"} 1")
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/buckets/{bucket}/objects/{key}\",status=\"404\"} 1")
                .contains("http_server_requests_seconds_count{method=\"GET\",route=\"unmatched\",status=\"404\"} 1")
                .contains("http_server_requests_seconds_count{method=\"other\",route=\"/buckets/{bucket}/objects/{key}\",status=\"405\"} 1")
                .doesNotContain("BREW")
                .contains("http_server_requests_seconds_bucket{" + put + ",status=\"201\",le=\"0.001\"}")
                .contains("http_server_requests_seconds_bucket{" + put + ",status=\"201\",le=\"+Inf\"} 2")
                .contains("bitcask_keys{" + store + "} 2.0")
                .contains("bitcask_merges_seconds_count{" + store + "} 0")
                .containsPattern("(?m)^bitcask_live_bytes\\{" + store + "\\} [1-9]")
                .containsPattern("(?m)^bitcask_dead_bytes\\{" + store + "\\} [1-9]")
                .containsPattern("(?m)^bitcask_disk_bytes\\{" + store + "\\} [1-9]")
                .containsPattern("(?m)^bitcask_index_bytes\\{" + store + "\\} [1-9]")
                .containsPattern("(?m)^bitcask_segments\\{" + store + "\\} [1-9]")
                .contains("bitcask_puts_total{" + store + "} 3.0")
                .contains("bitcask_gets_total{" + store + "} 1.0")
                .contains("bitcask_deletes_total{" + store + "} 0.0")
                .contains("bitcask_forces_seconds_count{" + store + "} 0")
                .contains("bitcask_refused_writes_total{" + store + "} 0.0")
                .contains("# HELP bitcask_keys Live keys in the store");
    }

    @Test
    void mergesTheServiceRunsAreCounted() throws IOException {
        // Small segments, so a few hundred objects fill several and a merge has sealed ones to rewrite.
        ObjectMetaServer server = track(ObjectMetaServer.listen(ServiceConfig.defaults(dir), c -> ObjectStore.open(
                c.dataDir(), BitCaskOptions.builder().segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE).autoMerge(false).build())));
        server.awaitOpen();
        ApiClient client = new ApiClient(server.uri());
        String padded = "{\"size\":1,\"md5\":\"" + MD5 + "\",\"userMetadata\":{\"pad\":\"" + "p".repeat(1000) + "\"}}";
        for (int i = 0; i < 200; i++) {
            assertThat(client.put("photos", "o" + i, padded).status()).isEqualTo(201);
        }
        for (int i = 0; i < 190; i++) {
            assertThat(client.delete("photos", "o" + i).status()).isEqualTo(204);
        }

        MergeResult merged = server.mergeIfDue();
        assertThat(merged).isNotNull();
        assertThat(merged.bytesReclaimed()).isPositive();
        assertThat(server.mergeIfDue()).as("nothing left to merge").isNull();

        String text = get(client, "/metrics").body();
        String store = "store=\"" + dir.getFileName() + "\"";
        assertThat(text).contains("bitcask_merges_seconds_count{" + store + "} 1")
                .contains("bitcask_merge_reclaimed_bytes_total{" + store + "} " + (double) merged.bytesReclaimed())
                .contains("bitcask_keys{" + store + "} 10.0");
        assertThat(client.get("photos", "o195").status()).isEqualTo(200);
    }

    @Test
    void everyObjectIsReachablePastTheFirstThousandThroughContinuationTokens() throws IOException {
        int count = 1234;
        try (ObjectStore store = ObjectStore.open(dir, BitCaskOptions.builder().build())) {
            for (int i = 0; i < count; i++) {
                store.put(new ObjectMeta("photos", String.format("k%05d", i), i, MD5, "image/png", Instant.EPOCH, Map.of()));
            }
            store.put(new ObjectMeta("other", "k00001", 1, MD5, "image/png", Instant.EPOCH, Map.of()));
        }
        ObjectMetaServer server = track(ObjectMetaServer.start(ServiceConfig.defaults(dir)));
        ApiClient client = new ApiClient(server.uri());

        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            JsonNode page = get(client, "/buckets/photos/objects" + (token == null ? "" : "?continuationToken=" + token)).json();
            page.get("objects").forEach(o -> seen.add(o.get("key").asText()));
            assertThat(page.get("truncated").asBoolean()).isEqualTo(!page.get("nextContinuationToken").isNull());
            token = page.get("nextContinuationToken").isNull() ? null : page.get("nextContinuationToken").asText();
            pages++;
        } while (token != null);

        assertThat(pages).isEqualTo(2);
        assertThat(seen).hasSize(count).isSorted().doesNotHaveDuplicates();

        JsonNode after = get(client, "/buckets/photos/objects?startAfter=k01230&limit=2").json();
        assertThat(after.get("objects")).extracting(o -> o.get("key").asText()).containsExactly("k01231", "k01232");
        assertThat(after.get("truncated").asBoolean()).isTrue();
        JsonNode last = get(client, "/buckets/photos/objects?limit=2&continuationToken="
                + after.get("nextContinuationToken").asText()).json();
        assertThat(last.get("objects")).extracting(o -> o.get("key").asText()).containsExactly("k01233");
        assertThat(last.get("truncated").asBoolean()).isFalse();

        ApiClient.Reply bad = get(client, "/buckets/photos/objects?continuationToken=%21%21");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("detail").asText()).isEqualTo("continuationToken is not one this service handed out");
    }

    @Test
    void aPortClashNamesThePortAndLeavesTheStoreClosed() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> ObjectMetaServer.start(ServiceConfig.defaults(dir).withPort(port)))
                    .isInstanceOf(BindException.class)
                    .hasMessageStartingWith("cannot listen on 127.0.0.1:" + port + ": ")
                    .hasMessageContaining("--port");
        }
        // The store was never opened, so its directory is not locked.
        ObjectMetaServer server = track(ObjectMetaServer.start(ServiceConfig.defaults(dir)));
        assertThat(get(new ApiClient(server.uri()), "/ready").status()).isEqualTo(200);
    }

    private ObjectMetaServer track(ObjectMetaServer server) {
        servers.add(server);
        return server;
    }

    private static ApiClient.Reply get(ApiClient client, String rawPath) {
        return client.send("GET", rawPath, BodyPublishers.noBody(), null);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition met within a minute").isNegative();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
