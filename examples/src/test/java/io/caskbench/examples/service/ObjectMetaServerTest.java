package io.caskbench.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.caskbench.bitcask.Backend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.caskbench.examples.service.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The service end to end: a real server on an ephemeral loopback port, real HTTP, a real store. */
class ObjectMetaServerTest {

    private static final String MD5 = "9e107d9d372bb6826bd81d3542a419d6";

    @TempDir
    Path dir;

    private ObjectMetaServer server;
    private ApiClient client;

    @BeforeEach
    void start() throws IOException {
        server = ObjectMetaServer.start(ServiceConfig.defaults(dir));
        client = new ApiClient(server.uri());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void bindsToLoopbackOnAnEphemeralPort() {
        assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
        assertThat(server.address().getPort()).isPositive();
    }

    @Test
    void createReadReplaceDelete() {
        Instant before = Instant.now().minusSeconds(1);

        ApiClient.Reply created = client.put("photos", "2024/cat one.png", body(1234, MD5.toUpperCase(), "image/png"));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.raw().headers().firstValue("Location")).hasValue("/buckets/photos/objects/2024/cat%20one.png");

        ApiClient.Reply read = client.get("photos", "2024/cat one.png");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.raw().headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode meta = read.json();
        assertThat(meta.get("bucket").asText()).isEqualTo("photos");
        assertThat(meta.get("key").asText()).isEqualTo("2024/cat one.png");
        assertThat(meta.get("size").asLong()).isEqualTo(1234);
        assertThat(meta.get("md5").asText()).isEqualTo(MD5);
        assertThat(meta.get("contentType").asText()).isEqualTo("image/png");
        assertThat(meta.get("userMetadata").get("owner").asText()).isEqualTo("alice");
        assertThat(Instant.parse(meta.get("created").asText())).isAfter(before).isBefore(Instant.now().plusSeconds(1));

        ApiClient.Reply replaced = client.put("photos", "2024/cat one.png", "{\"size\":1,\"md5\":\"" + MD5 + "\"}");
        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.json().get("contentType").asText()).isEqualTo("application/octet-stream");
        assertThat(replaced.json().get("userMetadata").size()).isZero();
        assertThat(client.get("photos", "2024/cat one.png").json().get("size").asLong()).isEqualTo(1);

        assertThat(client.delete("photos", "2024/cat one.png").status()).isEqualTo(204);
        assertThat(client.get("photos", "2024/cat one.png").status()).isEqualTo(404);
        assertThat(client.delete("photos", "2024/cat one.png").status()).isEqualTo(404);
    }

    @Test
    void listsByPrefixInKeyOrderWithinOneBucket() {
        for (String key : List.of("b/2.png", "a/1.png", "b/1.png", "b+c.png", "ü/1.png")) {
            assertThat(client.put("photos", key, body(1, MD5, "image/png")).status()).isEqualTo(201);
        }
        client.put("photosx", "b/9.png", body(1, MD5, "image/png"));   // another bucket that shares a prefix
        client.put("other", "b/3.png", body(1, MD5, "image/png"));

        assertThat(keys(client.list("photos", "b/"))).containsExactly("b/1.png", "b/2.png");
        assertThat(keys(client.list("photos", "b"))).containsExactly("b+c.png", "b/1.png", "b/2.png");
        assertThat(keys(client.list("photos", ""))).hasSize(5);
        assertThat(keys(client.list("photos", "ü"))).containsExactly("ü/1.png");
        assertThat(keys(client.list("photos", "zzz"))).isEmpty();
        assertThat(keys(client.list("nobucket", ""))).isEmpty();

        ApiClient.Reply page = client.send("GET", "/buckets/photos/objects?limit=2", BodyPublishers.noBody(), null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(keys(page)).containsExactly("a/1.png", "b+c.png");
        assertThat(page.json().get("truncated").asBoolean()).isTrue();
        assertThat(client.list("photos", "b/").json().get("truncated").asBoolean()).isFalse();
    }

    @Test
    void notFound() {
        assertThat(client.get("photos", "missing.png").status()).isEqualTo(404);
        ApiClient.Reply missing = client.get("photos", "missing.png");
        assertThat(missing.raw().headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(missing.json().get("type").asText()).isEqualTo("about:blank");
        assertThat(missing.json().get("title").asText()).isEqualTo("Not Found");
        assertThat(missing.json().get("status").asInt()).isEqualTo(404);
        assertThat(missing.json().get("detail").asText()).contains("missing.png");
        assertThat(missing.json().get("instance").asText()).isEqualTo("/buckets/photos/objects/missing.png");
        assertThat(get("/").status()).isEqualTo(404);
        assertThat(get("/buckets").status()).isEqualTo(404);
        assertThat(get("/buckets/photos").status()).isEqualTo(404);
        assertThat(get("/buckets/photos/things/x").status()).isEqualTo(404);
    }

    @Test
    void malformedInputIs400() {
        String[] badBodies = {
            "",                                                            // empty
            "{\"size\":1,\"md5\":\"" + MD5 + "\"",                         // truncated
            "{\"size\":1,\"md5\":\"" + MD5 + "\"} {}",                     // trailing content
            "[1]",                                                         // not an object
            "null",
            "{\"size\":\"12\",\"md5\":\"" + MD5 + "\"}",                   // number as string
            "{\"size\":1.5,\"md5\":\"" + MD5 + "\"}",                      // fraction
            "{\"size\":1,\"md5\":12}",                                     // string as number
            "{\"size\":1,\"md5\":\"" + MD5 + "\",\"colour\":\"red\"}",     // unknown field
            "{\"size\":1,\"size\":2,\"md5\":\"" + MD5 + "\"}",             // duplicate field
            "{\"md5\":\"" + MD5 + "\"}",                                   // size missing
            "{\"size\":-1,\"md5\":\"" + MD5 + "\"}",                       // negative size
            "{\"size\":1}",                                                // md5 missing
            "{\"size\":1,\"md5\":\"xyz\"}",                                // md5 not hex
            "{\"size\":1,\"md5\":\"" + MD5 + "\",\"contentType\":\"png\"}", // not a media type
            "{\"size\":1,\"md5\":\"" + MD5 + "\",\"userMetadata\":{\"a b\":\"x\"}}",
            "{\"size\":1,\"md5\":\"" + MD5 + "\",\"userMetadata\":{\"a\":null}}",
            "{\"size\":1,\"md5\":\"" + MD5 + "\",\"userMetadata\":{\"a\":1}}",
        };
        for (String bad : badBodies) {
            ApiClient.Reply reply = client.put("photos", "x.png", bad);
            assertThat(reply.status()).as(bad).isEqualTo(400);
            assertThat(reply.json().get("status").asInt()).isEqualTo(400);
            assertThat(reply.json().get("title").asText()).isEqualTo("Bad Request");
            assertThat(reply.json().get("detail").asText()).as(bad).isNotBlank()
                    // what the client sent, in its own terms: no Java or Jackson names
                    .doesNotContain("java.", "com.fasterxml", "Jackson", "jackson", "`", "Coercion", "PutObject",
                            "ObjectMeta", "ApiJson", "Source:", "caskbench");
        }
        assertThat(client.put("Photos", "x.png", body(1, MD5, "image/png")).status()).as("upper-case bucket").isEqualTo(400);
        assertThat(client.put("ab", "x.png", body(1, MD5, "image/png")).status()).as("short bucket").isEqualTo(400);
        assertThat(client.put("photos", "k".repeat(901), body(1, MD5, "image/png")).status()).as("long key").isEqualTo(400);
        assertThat(client.put("photos", "tab\there", body(1, MD5, "image/png")).status()).as("control char").isEqualTo(400);
        assertThat(get("/buckets/photos/objects/").status()).as("empty key").isEqualTo(400);
        assertThat(get("/buckets/photos/objects?limit=0").status()).isEqualTo(400);
        assertThat(get("/buckets/photos/objects?limit=x").status()).isEqualTo(400);
        assertThat(get("/buckets/photos/objects?colour=red").status()).isEqualTo(400);
        assertThat(get("/buckets/photos/objects?prefix=a&prefix=b").status()).isEqualTo(400);
        assertThat(client.get("photos", "x.png").status()).as("nothing was stored").isEqualTo(404);
    }

    /**
     * Two invalid UTF-8 sequences both decode to the replacement character, so a lenient decoder made
     * them one key and the second put replaced the first. Each is refused, naming the byte.
     */
    @Test
    void aKeyThatIsNotUtf8IsRefusedSoTwoKeysCannotCollide() {
        for (String raw : List.of("%C3%28", "%FF%28", "ok%E2%82")) {
            ApiClient.Reply reply = client.send("PUT", "/buckets/photos/objects/" + raw,
                    BodyPublishers.ofString(body(1, MD5, "image/png")), "application/json");
            assertThat(reply.status()).as(raw).isEqualTo(400);
            assertThat(reply.raw().headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(reply.json().get("detail").asText()).as(raw).contains("not valid UTF-8", "byte");
        }
        assertThat(client.send("PUT", "/buckets/photos/objects/%C3%28", BodyPublishers.ofString(body(1, MD5, "image/png")),
                "application/json").json().get("detail").asText()).contains("at byte 0");
        assertThat(client.send("PUT", "/buckets/photos/objects/ok%E2%82", BodyPublishers.ofString(body(1, MD5, "image/png")),
                "application/json").json().get("detail").asText()).contains("at byte 2");
        assertThat(get("/stats").json().get("keys").asLong()).as("nothing was stored").isZero();
    }

    /**
     * A malformed percent-escape: the service's decoder refuses it with the byte it stands at. Over HTTP
     * the JDK's server refuses such a request line itself (its URI does not parse), with a 400 in HTML,
     * before any handler runs; the service cannot turn that one into a problem, and stores nothing.
     */
    @Test
    void aMalformedPercentEscapeIsAProblemNamingItsByte() throws IOException {
        assertThatThrownBy(() -> ObjectRequests.decode("ab%ZZ", false)).isInstanceOf(HttpError.class)
                .hasMessageContaining("bad percent-escape at byte 2");
        assertThatThrownBy(() -> ObjectRequests.decode("ab%4", false)).isInstanceOf(HttpError.class)
                .hasMessageContaining("at byte 2");
        assertThat(ObjectRequests.decode("a+b%20c", false)).isEqualTo("a+b c");
        assertThat(ObjectRequests.decode("a+b", true)).isEqualTo("a b");

        String response = rawRequest("GET /buckets/photos/objects/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 400");
        assertThat(get("/stats").json().get("keys").asLong()).isZero();
    }

    /** Sends {@code request} as it is over a socket (no client would send a malformed URI) and returns the reply. */
    private String rawRequest(String request) throws IOException {
        try (Socket s = new Socket(client.base().getHost(), client.base().getPort())) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void durationsInTheLogReadAsAPersonWritesThem() {
        assertThat(ObjectMetaServer.readable(Duration.ofSeconds(5))).isEqualTo("5 s");
        assertThat(ObjectMetaServer.readable(Duration.ofMillis(250))).isEqualTo("250 ms");
    }

    @Test
    void badBodiesAreDescribedInTheClientsTerms() {
        String md5 = "\"md5\":\"" + MD5 + "\"";
        assertThat(detail("{\"size\":\"12\"," + md5 + "}")).isEqualTo("field 'size' must be a whole number");
        assertThat(detail("{\"size\":1.5," + md5 + "}")).isEqualTo("field 'size' must be a whole number");
        assertThat(detail("{\"size\":1,\"md5\":12}")).isEqualTo("field 'md5' must be a string");
        assertThat(detail("{\"size\":1," + md5 + ",\"userMetadata\":{\"a\":1}}"))
                .isEqualTo("field 'userMetadata.a' must be a string");
        assertThat(detail("{\"size\":1," + md5 + ",\"colour\":\"red\"}"))
                .isEqualTo("unknown field 'colour'; known fields: [contentType, md5, size, userMetadata]");
        assertThat(detail("{\"size\":1,\"size\":2," + md5 + "}")).isEqualTo("field 'size' given twice");
        assertThat(detail("{\"size\":1," + md5 + "} {}")).isEqualTo("content after the JSON object");
        assertThat(detail("{\"size\":1," + md5)).startsWith("malformed JSON at line 1, column ");
        assertThat(detail("")).isEqualTo("the body is empty: expected a JSON object");
        assertThat(detail("[1]")).isEqualTo("the body must be a JSON object");
    }

    @Test
    void oversizedBodyIs413WithOrWithoutContentLength() {
        String big = "{\"size\":1,\"md5\":\"" + MD5 + "\",\"userMetadata\":{\"pad\":\"" + "x".repeat(20_000) + "\"}}";

        assertThat(client.put("photos", "big.png", big).status()).isEqualTo(413);
        // A chunked upload has no Content-Length: the limit is enforced while reading.
        ApiClient.Reply chunked = client.send("PUT", "/buckets/photos/objects/big.png",
                BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))),
                "application/json");
        assertThat(chunked.status()).isEqualTo(413);
        assertThat(client.get("photos", "big.png").status()).isEqualTo(404);
    }

    @Test
    void wrongMethodIs405WithAllow() {
        ApiClient.Reply post = client.send("POST", "/buckets/photos/objects/x.png", BodyPublishers.ofString("{}"), "application/json");
        assertThat(post.status()).isEqualTo(405);
        assertThat(post.raw().headers().firstValue("Allow")).hasValue("GET, PUT, DELETE");
        assertThat(post.raw().headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(post.json().get("title").asText()).isEqualTo("Method Not Allowed");
        assertThat(client.send("DELETE", "/stats", BodyPublishers.noBody(), null).status()).isEqualTo(405);
        assertThat(client.send("PUT", "/buckets/photos/objects", BodyPublishers.ofString("{}"), "application/json").status())
                .isEqualTo(405);
    }

    @Test
    void bodyThatIsNotJsonIs415() {
        ApiClient.Reply reply = client.send("PUT", "/buckets/photos/objects/x.png",
                BodyPublishers.ofString(body(1, MD5, "image/png")), "text/plain");
        assertThat(reply.status()).isEqualTo(415);
        assertThat(client.send("PUT", "/buckets/photos/objects/x.png", BodyPublishers.ofString(body(1, MD5, "image/png")),
                "application/json; charset=utf-8").status()).isEqualTo(201);
    }

    @Test
    void statsCountKeysAndResponses() {
        client.put("photos", "a.png", body(1, MD5, "image/png"));
        client.put("photos", "b.png", body(1, MD5, "image/png"));
        client.get("photos", "nope.png");

        JsonNode stats = client.stats().json();
        assertThat(stats.get("keys").asLong()).isEqualTo(2);
        assertThat(stats.get("backend").asText()).isEqualTo("MAPPED");
        assertThat(stats.get("syncPolicy").asText()).isEqualTo("NONE");
        assertThat(stats.get("liveBytes").asLong()).isPositive();
        assertThat(stats.get("responses").get("2xx").asLong()).isEqualTo(2);
        assertThat(stats.get("responses").get("4xx").asLong()).isEqualTo(1);
    }

    @Test
    void restartKeepsTheDataAlsoOnTheOtherBackend() throws IOException {
        for (int i = 0; i < 100; i++) {
            client.put("photos", "object" + i + ".png", body(i, MD5, "image/png"));
        }
        client.delete("photos", "object7.png");
        JsonNode before = client.get("photos", "object42.png").json();
        server.close();

        server = ObjectMetaServer.start(ServiceConfig.defaults(dir).withBackend(Backend.FILE_CHANNEL));
        client = new ApiClient(server.uri());

        assertThat(client.get("photos", "object42.png").json()).isEqualTo(before);
        assertThat(client.get("photos", "object7.png").status()).isEqualTo(404);
        assertThat(client.stats().json().get("keys").asLong()).isEqualTo(99);
        assertThat(client.stats().json().get("backend").asText()).isEqualTo("FILE_CHANNEL");
    }

    @Test
    void closeIsIdempotentAndRefusesASecondServerOnTheSameDirectoryWhileOpen() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ObjectMetaServer.start(ServiceConfig.defaults(dir)))
                .isInstanceOf(io.caskbench.bitcask.BitCaskLockedException.class);
        server.close();
        server.close();
    }

    private String detail(String badBody) {
        ApiClient.Reply reply = client.put("photos", "x.png", badBody);
        assertThat(reply.status()).as(badBody).isEqualTo(400);
        return reply.json().get("detail").asText();
    }

    private ApiClient.Reply get(String rawPath) {
        return client.send("GET", rawPath, BodyPublishers.noBody(), null);
    }

    private static List<String> keys(ApiClient.Reply listing) {
        assertThat(listing.status()).isEqualTo(200);
        List<String> keys = new ArrayList<>();
        listing.json().get("objects").forEach(o -> keys.add(o.get("key").asText()));
        return keys;
    }
}
