package io.caskbench.examples.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged service as an operator runs it: the one jar copied alone into an empty folder,
 * started with {@code java -jar}, probed over real HTTP on loopback, refused a second start on
 * the same port with a message that names it, and stopped with SIGTERM.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard for a loaded machine, not a speed limit
class ObjectMetaServiceJarIT {

    @TempDir
    Path dir;

    @Test
    void theJarRunsAloneAndAnswersProbesAndMetrics() throws Exception {
        Path jar = Files.copy(Path.of(System.getProperty("caskbench.serviceJar")), dir.resolve("object-meta-service.jar"));
        ServiceProcess first = start(jar, dir.resolve("data"), "0");
        try {
            ApiClient client = new ApiClient(first.ready().get(4, TimeUnit.MINUTES));
            assertThat(get(client, "/health").status()).isEqualTo(200);
            assertThat(get(client, "/ready").json().get("status").asText()).isEqualTo("READY");
            assertThat(client.put("photos", "a.png", ApiClient.body(7, "9e107d9d372bb6826bd81d3542a419d6", "image/png"))
                    .status()).isEqualTo(201);
            ApiClient.Reply metrics = get(client, "/metrics");
            assertThat(metrics.status()).isEqualTo(200);
            assertThat(metrics.body()).contains("http_server_requests_seconds_count")
                    .containsPattern("bitcask_keys\\{store=\"[^\"]+\"\\} 1.0");

            int port = client.base().getPort();
            ServiceProcess second = start(jar, dir.resolve("other-data"), Integer.toString(port));
            assertThat(second.process().waitFor(4, TimeUnit.MINUTES)).isTrue();
            second.awaitOutput();
            assertThat(second.process().exitValue()).as(second.output()).isEqualTo(1);
            assertThat(second.output()).contains("cannot listen on 127.0.0.1:" + port + ": ").doesNotContain("Exception");

            assertThat(first.process().toHandle().destroy()).isTrue(); // SIGTERM
            assertThat(first.process().waitFor(4, TimeUnit.MINUTES)).isTrue();
            first.awaitOutput();
            assertThat(first.process().exitValue()).as(first.output()).isEqualTo(143);
            assertThat(first.output()).contains("store closed");
        } finally {
            first.process().destroyForcibly();
        }
    }

    private static ServiceProcess start(Path jar, Path data, String port) throws IOException {
        return ServiceProcess.start(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "--data-dir", data.toString(), "--port", port).directory(jar.getParent().toFile()));
    }

    private static ApiClient.Reply get(ApiClient client, String path) {
        return client.send("GET", path, BodyPublishers.noBody(), null);
    }
}
