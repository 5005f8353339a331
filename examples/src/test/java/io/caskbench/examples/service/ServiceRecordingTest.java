package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.SyncPolicy;
import io.caskbench.bitcask.events.EventSettings;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service under load from several clients, recorded with the JDK's default settings and
 * {@code bitcask.jfc} laid over them (slow gets and puts at a threshold of zero, so every one is
 * recorded): the store's events are in the recording, and they agree with its meters on
 * {@code /metrics}, with the merge the service ran and with the files it left.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard for a loaded machine, not a speed limit
class ServiceRecordingTest {

    private static final String MD5 = "9e107d9d372bb6826bd81d3542a419d6";
    private static final int CLIENTS = 4;
    private static final int OBJECTS_PER_CLIENT = 150;

    @TempDir
    Path dir;

    @Test
    void aRecordingOfTheServiceUnderLoadHoldsTheStoresEvents() throws Exception {
        Path data = dir.resolve("objects");
        Map<String, String> settings = EventSettings.over("default");
        settings.put("io.caskbench.bitcask.SlowGet#threshold", "0 ms");
        settings.put("io.caskbench.bitcask.SlowPut#threshold", "0 ms");
        MergeResult merged;
        String metrics;
        try (Recording recording = new Recording(settings)) {
            recording.start();
            ServiceConfig config = ServiceConfig.defaults(data);
            try (ObjectMetaServer server = ObjectMetaServer.listen(config, c -> ObjectStore.open(c.dataDir(),
                    BitCaskOptions.builder().segmentSize(BitCaskOptions.MIN_SEGMENT_SIZE).syncPolicy(SyncPolicy.ALWAYS)
                            .autoMerge(false).build()))) {
                server.awaitOpen();
                ApiClient client = new ApiClient(server.uri());
                load(client);
                merged = server.mergeIfDue();
                assertThat(merged).as("most objects were deleted").isNotNull();
                metrics = client.send("GET", "/metrics", BodyPublishers.noBody(), null).body();
            }
            recording.stop();
            recording.dump(dir.resolve("service.jfr"));
        }
        List<RecordedEvent> all = RecordingFile.readAllEvents(dir.resolve("service.jfr")).stream()
                .filter(e -> e.getEventType().getName().startsWith("io.caskbench.bitcask."))
                .filter(e -> data.toAbsolutePath().toString().equals(e.getString("store")))
                .collect(Collectors.toList());
        String store = "{store=\"objects\"}";

        assertThat(of(all, "Open")).singleElement().satisfies(e -> {
            assertThat(e.getInt("segments")).isZero();
            assertThat(e.getLong("keys")).isZero();
        });
        assertThat((double) of(all, "SlowPut").size()).as("every put").isEqualTo(meter(metrics, "bitcask_puts_total" + store))
                .isEqualTo(CLIENTS * OBJECTS_PER_CLIENT);
        assertThat((double) of(all, "SlowGet").size()).as("every get").isEqualTo(meter(metrics, "bitcask_gets_total" + store));

        List<RecordedEvent> forces = of(all, "Force");
        assertThat((double) forces.size()).isEqualTo(meter(metrics, "bitcask_forces_seconds_count" + store)).isPositive();
        assertThat(forces).allSatisfy(f -> {
            assertThat(f.getBoolean("succeeded")).isTrue();
            assertThat(f.getInt("waitersReleased")).isBetween(0, CLIENTS - 1);
        });

        List<RecordedEvent> rollovers = of(all, "Rollover");
        assertThat(rollovers).isNotEmpty().allSatisfy(r -> {
            assertThat(r.getBoolean("forced")).as("sync policy ALWAYS").isTrue();
            assertThat(r.getLong("sealedBytes")).isLessThanOrEqualTo(BitCaskOptions.MIN_SEGMENT_SIZE);
            assertThat(r.getLong("newSegment")).isGreaterThan(r.getLong("sealedSegment"));
        });

        assertThat(of(all, "Merge")).singleElement().satisfies(m -> {
            assertThat(m.getInt("inputs")).isEqualTo(merged.removedSegments().size());
            assertThat(m.getInt("outputs")).isEqualTo(merged.addedSegments().size());
            assertThat(m.getLong("bytesRead")).isEqualTo(merged.bytesRead());
            assertThat(m.getLong("bytesWritten")).isEqualTo(merged.bytesAfter());
            assertThat(m.getLong("recordsCopied")).isEqualTo(merged.recordsCopied());
        });
        assertThat(meter(metrics, "bitcask_merge_reclaimed_bytes_total" + store)).isEqualTo(merged.bytesReclaimed());

        List<RecordedEvent> hints = of(all, "HintWrite");
        try (var files = Files.list(data)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".hint")).collect(Collectors.toList())) {
                long id = Long.parseLong(file.getFileName().toString().replace(".hint", ""));
                RecordedEvent last = hints.stream().filter(h -> h.getLong("segment") == id).reduce((a, b) -> b).orElseThrow();
                assertThat(last.getLong("hintBytes")).as(file.toString()).isEqualTo(Files.size(file));
            }
        }
        assertThat(of(all, "WriteRefused")).isEmpty();
    }

    /** Each client puts its objects, reads each back, and deletes all but a few. */
    private static void load(ApiClient client) throws Exception {
        String body = "{\"size\":1,\"md5\":\"" + MD5 + "\",\"userMetadata\":{\"pad\":\"" + "p".repeat(500) + "\"}}";
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                String prefix = "c" + c + "-";
                done.add(pool.submit(() -> {
                    for (int i = 0; i < OBJECTS_PER_CLIENT; i++) {
                        assertThat(client.put("photos", prefix + i, body).status()).isEqualTo(201);
                        assertThat(client.get("photos", prefix + i).status()).isEqualTo(200);
                    }
                    for (int i = 10; i < OBJECTS_PER_CLIENT; i++) {
                        assertThat(client.delete("photos", prefix + i).status()).isEqualTo(204);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(4, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<RecordedEvent> of(List<RecordedEvent> all, String type) {
        return all.stream().filter(e -> e.getEventType().getName().equals("io.caskbench.bitcask." + type))
                .collect(Collectors.toList());
    }

    /** The value of one series on the Prometheus page. */
    private static double meter(String page, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(page);
        assertThat(m.find()).as("%s on %s", series, page).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
