package io.caskbench.examples.service;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A test client that talks to the service through real HTTP on loopback. Thread-safe. */
final class ApiClient {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .build();
    private final URI base;

    ApiClient(URI base) {
        this.base = base;
    }

    /** The base URI requests go to. */
    URI base() {
        return base;
    }

    /** A response: its status and body, with the body parsed when it is JSON. */
    record Reply(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return ApiJson.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }
    }

    Reply put(String bucket, String key, String json) {
        return send("PUT", objectPath(bucket, key), BodyPublishers.ofString(json), "application/json");
    }

    Reply get(String bucket, String key) {
        return send("GET", objectPath(bucket, key), BodyPublishers.noBody(), null);
    }

    Reply delete(String bucket, String key) {
        return send("DELETE", objectPath(bucket, key), BodyPublishers.noBody(), null);
    }

    Reply list(String bucket, String prefix) {
        return send("GET", "/buckets/" + bucket + "/objects?prefix=" + URLEncoder.encode(prefix, StandardCharsets.UTF_8),
                BodyPublishers.noBody(), null);
    }

    Reply stats() {
        return send("GET", "/stats", BodyPublishers.noBody(), null);
    }

    /** Any request; {@code rawPath} is sent as it is, {@code contentType} null sends none. */
    Reply send(String method, String rawPath, BodyPublisher body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(rawPath))
                .timeout(Duration.ofSeconds(60))
                .method(method, body);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body(), response);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + rawPath, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The path of an object, its key percent-encoded segment by segment. */
    static String objectPath(String bucket, String key) {
        return "/buckets/" + bucket + "/objects/" + URLEncoder.encode(key, StandardCharsets.UTF_8)
                .replace("+", "%20").replace("%2F", "/");
    }

    /** A valid PUT body. */
    static String body(long size, String md5, String contentType) {
        return "{\"size\":" + size + ",\"md5\":\"" + md5 + "\",\"contentType\":\"" + contentType
                + "\",\"userMetadata\":{\"owner\":\"alice\"}}";
    }
}
