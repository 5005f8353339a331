package io.caskbench.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.caskbench.examples.service.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many clients at once, a fixed amount of work, every response checked against what that client
 * knows it stored. It counts requests; it does not time them.
 */
class ObjectMetaServerLoadTest {

    private static final int CLIENTS = 32;
    /** Objects each client creates: 104 requests per client, 3,328 in all (see {@link #client}). */
    private static final int OBJECTS_PER_CLIENT = 40;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // a hang guard for a loaded machine, not a speed limit
    void concurrentClientsGetConsistentAnswers() throws Exception {
        // Fewer workers than clients, and a short queue, so requests wait and back-pressure is exercised.
        ServiceConfig config = ServiceConfig.defaults(dir);
        config = new ServiceConfig(config.dataDir(), config.bind(), 0, config.backend(), config.syncPolicy(), 4, 8,
                config.maxBodyBytes(), config.shutdownGrace(), config.mergeCheck());
        AtomicInteger requests = new AtomicInteger();
        List<TreeSet<String>> live = new ArrayList<>();
        try (ObjectMetaServer server = ObjectMetaServer.start(config)) {
            ApiClient client = new ApiClient(server.uri());
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<TreeSet<String>>> results = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int id = c;
                results.add(pool.submit(() -> {
                    go.await();
                    return client(client, id, requests);
                }));
            }
            go.countDown();
            for (Future<TreeSet<String>> f : results) {
                live.add(f.get());
            }
            pool.shutdown();

            int expectedKeys = live.stream().mapToInt(TreeSet::size).sum();
            JsonNode stats = client.stats().json();
            assertThat(stats.get("keys").asLong()).isEqualTo(expectedKeys);
            assertThat(stats.get("responses").has("5xx")).isFalse();
            assertThat(stats.get("responses").get("2xx").asLong() + stats.get("responses").get("4xx").asLong())
                    .isEqualTo(requests.get());
        }
        int perClient = OBJECTS_PER_CLIENT * 2 + OBJECTS_PER_CLIENT / 4 * 2 + OBJECTS_PER_CLIENT / 10;
        assertThat(requests.get()).isEqualTo(CLIENTS * perClient);
    }

    /**
     * One client's fixed script: create, read back, every 4th object delete an earlier one and
     * check it is gone, every 10th list its own prefix and compare with what it knows.
     */
    private static TreeSet<String> client(ApiClient client, int id, AtomicInteger requests) {
        String bucket = "load-" + (id % 4);        // clients share buckets, not prefixes
        String prefix = "c" + id + "/";
        TreeSet<String> mine = new TreeSet<>();
        for (int i = 0; i < OBJECTS_PER_CLIENT; i++) {
            String key = prefix + "object" + i + ".png";
            String md5 = String.format("%032x", (long) id * 1_000_003 + i);

            ApiClient.Reply put = client.put(bucket, key, body(i, md5, "image/png"));
            assertThat(put.status()).as(key).isEqualTo(201);
            mine.add(key);

            ApiClient.Reply get = client.get(bucket, key);
            assertThat(get.status()).as(key).isEqualTo(200);
            assertThat(get.json().get("md5").asText()).isEqualTo(md5);
            assertThat(get.json().get("size").asLong()).isEqualTo(i);
            requests.addAndGet(2);

            if (i % 4 == 3) {
                String gone = prefix + "object" + (i - 2) + ".png";
                assertThat(client.delete(bucket, gone).status()).as(gone).isEqualTo(204);
                assertThat(client.get(bucket, gone).status()).as(gone).isEqualTo(404);
                mine.remove(gone);
                requests.addAndGet(2);
            }
            if (i % 10 == 9) {
                ApiClient.Reply list = client.list(bucket, prefix);
                assertThat(list.status()).isEqualTo(200);
                List<String> keys = new ArrayList<>();
                list.json().get("objects").forEach(o -> keys.add(o.get("key").asText()));
                assertThat(keys).as("listing of " + prefix).containsExactlyElementsOf(mine);
                requests.incrementAndGet();
            }
        }
        return mine;
    }
}
