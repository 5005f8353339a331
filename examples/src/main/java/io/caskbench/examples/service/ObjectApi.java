package io.caskbench.examples.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.examples.service.ApiJson.ErrorBody;
import io.caskbench.examples.service.ApiJson.ObjectListing;
import io.caskbench.examples.service.ApiJson.ObjectView;
import io.caskbench.examples.service.ApiJson.PutObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * The HTTP API over an {@link ObjectStore}: routing, validation, JSON and status codes. One
 * instance serves every request, from the server's worker threads.
 *
 * <pre>
 * PUT    /buckets/{b}/objects/{key}       201 created, 200 replaced
 * GET    /buckets/{b}/objects/{key}       200, 404
 * DELETE /buckets/{b}/objects/{key}       204, 404
 * GET    /buckets/{b}/objects?prefix=&amp;limit=   200
 * GET    /stats                           200
 * </pre>
 *
 * Errors: 400 malformed input, 404 unknown object or path, 405 wrong method (with {@code Allow}),
 * 413 body over the limit, 415 body not JSON, 500 store failure, 503 while shutting down.
 */
final class ObjectApi implements HttpHandler {

    private static final Logger log = LoggerFactory.getLogger(ObjectApi.class);

    /** S3's rule, minus the IP-address special cases: also keeps '/' out of bucket names. */
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern MD5 = Pattern.compile("[0-9a-fA-F]{32}");
    private static final Pattern MEDIA_TYPE = Pattern.compile("[\\w!#$&^.+-]+/[\\w!#$&^.+-]+( *;[ -~]*)?");
    private static final Pattern META_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f]");
    static final int MAX_META_ENTRIES = 32;
    static final int MAX_META_VALUE = 1024;
    static final int MAX_CONTENT_TYPE = 255;
    /** Listing page size when none is asked for, and the largest allowed. */
    static final int MAX_LIMIT = 1000;

    private final ObjectStore store;
    private final int maxBodyBytes;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean draining;
    private final LongAdder[] byClass = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    ObjectApi(ObjectStore store, int maxBodyBytes, Clock clock) {
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
        this.clock = clock;
    }

    @Override
    public void handle(HttpExchange ex) {
        long start = System.nanoTime();
        // Counted before draining is read, so drain() sees every request that may touch the store.
        inFlight.incrementAndGet();
        int status = 0;
        try {
            Reply reply;
            try {
                reply = draining ? Reply.error(new HttpError(503, "shutting down")) : route(ex);
            } catch (HttpError e) {
                reply = Reply.error(e);
            } catch (RuntimeException e) {
                log.error("{} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
                reply = Reply.error(new HttpError(500, "internal error: " + e.getClass().getSimpleName()));
            }
            status = reply.status();
            // Counted before the client can see the response, so /stats right after it includes it.
            byClass[status / 100 - 1].increment();
            send(ex, reply);
        } catch (IOException e) {
            log.debug("{} {}: client went away: {}", ex.getRequestMethod(), ex.getRequestURI(), e.toString());
        } finally {
            ex.close();
            inFlight.decrementAndGet();
            if (log.isDebugEnabled()) { // no boxing or varargs array per request when debug is off
                log.debug("{} {} -> {} in {} us", ex.getRequestMethod(), ex.getRequestURI(), status,
                        TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
            }
        }
    }

    /**
     * Refuses new requests with 503 and waits until those in progress have finished, at most
     * {@code timeoutNanos}; returns how many were still running then.
     */
    int drain(long timeoutNanos) throws InterruptedException {
        draining = true;
        long deadline = System.nanoTime() + timeoutNanos;
        while (inFlight.get() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        return inFlight.get();
    }

    private Reply route(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod();
        // The raw path, so that an encoded '/' (%2F) inside a key cannot split it into segments.
        String path = ex.getRequestURI().getRawPath();
        if (path.equals("/stats")) {
            requireMethod(method, "GET");
            return new Reply(200, stats(), Map.of());
        }
        if (path.startsWith("/buckets/")) {
            String rest = path.substring("/buckets/".length());
            int slash = rest.indexOf('/');
            if (slash > 0) {
                String rawBucket = rest.substring(0, slash);
                String tail = rest.substring(slash);
                if (tail.equals("/objects")) {
                    requireMethod(method, "GET");
                    return list(bucket(rawBucket), ex.getRequestURI().getRawQuery());
                }
                if (tail.startsWith("/objects/")) {
                    return object(ex, method, bucket(rawBucket), objectKey(tail.substring("/objects/".length())), path);
                }
            }
        }
        throw new HttpError(404, "no such resource: " + path);
    }

    private Reply object(HttpExchange ex, String method, String bucket, String key, String path) throws IOException {
        switch (method) {
            case "GET": {
                ObjectMeta meta = store.get(bucket, key);
                if (meta == null) {
                    throw new HttpError(404, "no object " + key + " in bucket " + bucket);
                }
                return new Reply(200, ObjectView.of(meta), Map.of());
            }
            case "DELETE":
                if (!store.delete(bucket, key)) {
                    throw new HttpError(404, "no object " + key + " in bucket " + bucket);
                }
                return new Reply(204, null, Map.of());
            case "PUT": {
                ObjectMeta meta = toMeta(bucket, key, parse(readBody(ex)));
                boolean created = store.put(meta);
                return new Reply(created ? 201 : 200, ObjectView.of(meta), created ? Map.of("Location", path) : Map.of());
            }
            default:
                throw HttpError.methodNotAllowed(method, "GET, PUT, DELETE");
        }
    }

    private Reply list(String bucket, String rawQuery) {
        Map<String, String> query = query(rawQuery, Set.of("prefix", "limit"));
        String prefix = query.getOrDefault("prefix", "");
        if (prefix.getBytes(StandardCharsets.UTF_8).length > ObjectStore.MAX_OBJECT_KEY_BYTES) {
            throw new HttpError(400, "prefix longer than any key can be");
        }
        int limit = MAX_LIMIT;
        if (query.containsKey("limit")) {
            try {
                limit = Integer.parseInt(query.get("limit"));
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new HttpError(400, "limit must be an integer from 1 to " + MAX_LIMIT);
            }
        }
        ObjectStore.Listing listing = store.list(bucket, prefix, limit);
        return new Reply(200, new ObjectListing(bucket, prefix,
                listing.objects().stream().map(ObjectView::of).toList(), listing.truncated()), Map.of());
    }

    private ApiJson.Stats stats() {
        BitCaskStats s = store.stats();
        Map<String, Long> responses = new LinkedHashMap<>();
        for (int c = 0; c < byClass.length; c++) {
            long n = byClass[c].sum();
            if (n > 0) {
                responses.put((c + 1) + "xx", n);
            }
        }
        return new ApiJson.Stats(store.directory().toString(), store.options().backend().name(),
                store.options().syncPolicy().name(), s.keyCount(), s.liveBytes(), s.deadBytes(), s.segmentCount(),
                s.diskBytes(), s.indexBytes(), responses);
    }

    /** Reads the body, refusing what is not JSON (415) or longer than the limit (413), chunked or not. */
    private byte[] readBody(HttpExchange ex) throws IOException {
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        if (type != null && !type.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
            throw new HttpError(415, "body must be application/json, not " + type);
        }
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > maxBodyBytes) {
                    throw new HttpError(413, "body larger than " + maxBodyBytes + " bytes");
                }
            } catch (NumberFormatException e) {
                throw new HttpError(400, "bad Content-Length: " + length);
            }
        }
        try (InputStream in = ex.getRequestBody()) {
            byte[] body = in.readNBytes(maxBodyBytes + 1);
            if (body.length > maxBodyBytes) {
                throw new HttpError(413, "body larger than " + maxBodyBytes + " bytes");
            }
            return body;
        }
    }

    private static PutObject parse(byte[] body) {
        PutObject req;
        try {
            req = ApiJson.MAPPER.readValue(body, PutObject.class);
        } catch (JsonProcessingException e) {
            throw new HttpError(400, "malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new HttpError(400, "unreadable body: " + e.getMessage());
        }
        if (req == null) {
            throw new HttpError(400, "body must be a JSON object");
        }
        return req;
    }

    private ObjectMeta toMeta(String bucket, String key, PutObject req) {
        if (req.size() == null || req.size() < 0) {
            throw new HttpError(400, "size is required and must be >= 0");
        }
        if (req.md5() == null || !MD5.matcher(req.md5()).matches()) {
            throw new HttpError(400, "md5 is required: 32 hex digits");
        }
        String contentType = req.contentType() == null ? "application/octet-stream" : req.contentType();
        if (contentType.length() > MAX_CONTENT_TYPE || !MEDIA_TYPE.matcher(contentType).matches()) {
            throw new HttpError(400, "contentType must be a media type like image/png");
        }
        Map<String, String> metadata = req.userMetadata() == null ? Map.of() : req.userMetadata();
        if (metadata.size() > MAX_META_ENTRIES) {
            throw new HttpError(400, "at most " + MAX_META_ENTRIES + " userMetadata entries");
        }
        Map<String, String> checked = new HashMap<>();
        metadata.forEach((name, value) -> {
            if (name == null || !META_NAME.matcher(name).matches()) {
                throw new HttpError(400, "userMetadata names are 1-128 letters, digits, '-', '_' or '.'");
            }
            if (value == null || value.length() > MAX_META_VALUE || CONTROL.matcher(value).find()) {
                throw new HttpError(400, "userMetadata value of " + name + " must be a string of at most "
                        + MAX_META_VALUE + " printable characters");
            }
            checked.put(name, value);
        });
        return new ObjectMeta(bucket, key, req.size(), req.md5().toLowerCase(Locale.ROOT), contentType,
                clock.instant(), checked);
    }

    private static String bucket(String raw) {
        String bucket = decode(raw, false);
        if (!BUCKET.matcher(bucket).matches()) {
            throw new HttpError(400, "bucket names are 3-63 lower-case letters, digits, '.' or '-'");
        }
        return bucket;
    }

    private static String objectKey(String raw) {
        String key = decode(raw, false);
        if (key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > ObjectStore.MAX_OBJECT_KEY_BYTES) {
            throw new HttpError(400, "object keys are 1 to " + ObjectStore.MAX_OBJECT_KEY_BYTES + " UTF-8 bytes");
        }
        if (CONTROL.matcher(key).find()) {
            throw new HttpError(400, "object keys must not contain control characters");
        }
        return key;
    }

    /** Parses a query string, refusing unknown and repeated parameters. */
    private static Map<String, String> query(String rawQuery, Set<String> known) {
        Map<String, String> values = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return values;
        }
        for (String pair : rawQuery.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            if (!known.contains(name)) {
                throw new HttpError(400, "unknown query parameter '" + name + "'; known: " + known);
            }
            if (values.put(name, value) != null) {
                throw new HttpError(400, "query parameter " + name + " given twice");
            }
        }
        return values;
    }

    /** Percent-decodes a path segment ('+' stays '+') or a query part ('+' is a space, as in forms). */
    private static String decode(String raw, boolean query) {
        try {
            return URLDecoder.decode(query ? raw : raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new HttpError(400, "bad percent-encoding in " + raw);
        }
    }

    private static void send(HttpExchange ex, Reply reply) throws IOException {
        Headers headers = ex.getResponseHeaders();
        reply.headers().forEach(headers::set);
        if (reply.body() == null) {
            ex.sendResponseHeaders(reply.status(), -1);
            return;
        }
        byte[] bytes = ApiJson.MAPPER.writeValueAsBytes(reply.body());
        headers.set("Content-Type", "application/json");
        ex.sendResponseHeaders(reply.status(), bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw HttpError.methodNotAllowed(method, allowed);
        }
    }

    /** A response: status, JSON body (null for none) and extra headers. */
    private record Reply(int status, Object body, Map<String, String> headers) {
        static Reply error(HttpError e) {
            return new Reply(e.status(), new ErrorBody(e.status(), e.getMessage()),
                    e.allow() == null ? Map.of() : Map.of("Allow", e.allow()));
        }
    }
}
