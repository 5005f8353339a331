package io.caskbench.examples.service;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.examples.service.ApiJson.Health;
import io.caskbench.examples.service.ApiJson.ObjectListing;
import io.caskbench.examples.service.ApiJson.ObjectView;
import io.caskbench.raft.client.RaftUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The HTTP API over an {@link ObjectStore}: routing, validation, JSON and status codes. One
 * instance serves every request, from the server's worker threads.
 *
 * <pre>
 * PUT    /buckets/{b}/objects/{key}       201 created, 200 replaced
 * GET    /buckets/{b}/objects/{key}       200, 404
 * DELETE /buckets/{b}/objects/{key}       204, 404
 * GET    /buckets/{b}/objects?prefix=&amp;limit=&amp;startAfter=&amp;continuationToken=   200
 * GET    /stats                           200
 * GET    /health                          200 while the process serves (liveness)
 * GET    /ready                           200 once the store is open, 503 while it opens or drains, or
 *                                         while the replicas of a replicated store name no leader
 * GET    /metrics                         200, Prometheus text format
 * </pre>
 *
 * Errors are RFC 9457 problems ({@code application/problem+json}): 400 malformed input, 404
 * unknown object or path, 405 wrong method (with {@code Allow}), 413 body over the limit, 415 body
 * not JSON, 500 store failure, 501 listing or stats of a replicated store, 503 while the store opens, the
 * server drains or no majority of the replicas answers (with {@code Retry-After}).
 */
final class ObjectApi implements HttpHandler {

    private static final Logger log = LoggerFactory.getLogger(ObjectApi.class);

    static final int MAX_LIMIT = 1000;
    /** The metrics label of paths that match no route, so that scanners cannot grow the series without bound. */
    static final String UNMATCHED = "unmatched";
    private static final String OBJECTS = "/buckets/{bucket}/objects";
    private static final String OBJECT = "/buckets/{bucket}/objects/{key}";
    /** Of a body over the limit, at most this much is read and thrown away before the 413 (see {@link #tooLarge}). */
    private static final long DISCARDED_BODY_BYTES = 8L << 20;
    private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "PUT", "POST", "DELETE", "PATCH", "OPTIONS");

    private final ServiceMetrics metrics;
    private final int maxBodyBytes;
    private final Clock clock;
    private final long drainRetryAfterSeconds;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder[] byClass = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};
    /** Null until the store is open: the API answers 503 meanwhile. */
    private volatile ObjectStore store;
    private volatile boolean draining;

    /**
     * An API whose store is still opening; {@link #opened(ObjectStore)} makes it ready. While
     * draining, 503 answers carry {@code Retry-After: drainRetryAfterSeconds}.
     */
    ObjectApi(ServiceMetrics metrics, int maxBodyBytes, Clock clock, long drainRetryAfterSeconds) {
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
        this.clock = clock;
        this.drainRetryAfterSeconds = drainRetryAfterSeconds;
    }

    /** Starts serving the object routes from {@code opened}. */
    void opened(ObjectStore opened) {
        this.store = opened;
    }

    /** Requests being answered right now. */
    int inFlight() {
        return inFlight.get();
    }

    /** The open store, or null while it opens. */
    ObjectStore store() {
        return store;
    }

    @Override
    public void handle(HttpExchange ex) {
        long start = System.nanoTime();
        // Counted before draining is read, so drain() sees every request that may touch the store.
        inFlight.incrementAndGet();
        String path = ex.getRequestURI().getRawPath();
        String route = routeOf(path);
        int status = 0;
        try {
            Reply reply;
            try {
                reply = answer(ex, route, path);
            } catch (HttpError e) {
                reply = Reply.problem(e, path);
            } catch (UnsupportedOperationException e) {
                reply = Reply.problem(new HttpError(501, e.getMessage()), path);
            } catch (RaftUnavailableException e) {
                log.warn("{} {}: {}", ex.getRequestMethod(), ex.getRequestURI(), e.getMessage());
                reply = Reply.problem(HttpError.unavailable("no majority of the replicas answered in time", 1), path);
            } catch (RuntimeException e) {
                log.error("{} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
                reply = Reply.problem(new HttpError(500, "internal error; the server log has the cause"), path);
            }
            status = reply.status();
            // Counted before the client can see the response, so /stats right after it includes it.
            byClass[status / 100 - 1].increment();
            metrics.request(route, methodLabel(ex.getRequestMethod()), status, System.nanoTime() - start);
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

    /** The metrics label of a request method: any method a client makes up counts as {@code other}. */
    static String methodLabel(String method) {
        return KNOWN_METHODS.contains(method) ? method : "other";
    }

    /** The route template a raw path belongs to; the label of its metrics. */
    static String routeOf(String path) {
        switch (path) {
            case "/health":
            case "/ready":
            case "/metrics":
            case "/stats":
                return path;
            default:
                break;
        }
        if (path.startsWith("/buckets/")) {
            String rest = path.substring("/buckets/".length());
            int slash = rest.indexOf('/');
            if (slash > 0) {
                String tail = rest.substring(slash);
                if (tail.equals("/objects")) {
                    return OBJECTS;
                }
                if (tail.startsWith("/objects/")) {
                    return OBJECT;
                }
            }
        }
        return UNMATCHED;
    }

    private Reply answer(HttpExchange ex, String route, String path) throws IOException {
        String method = ex.getRequestMethod();
        switch (route) {
            case "/health":
                requireMethod(method, "GET");
                return Reply.json(200, new Health("UP"), Map.of());
            case "/ready":
                requireMethod(method, "GET");
                return ready();
            case "/metrics":
                requireMethod(method, "GET");
                return new Reply(200, metrics.scrape().getBytes(StandardCharsets.UTF_8), ServiceMetrics.CONTENT_TYPE, Map.of());
            case UNMATCHED:
                throw new HttpError(404, "no such resource: " + path);
            default:
                break;
        }
        ObjectStore open = openStore();
        if (route.equals("/stats")) {
            requireMethod(method, "GET");
            return Reply.json(200, stats(open), Map.of());
        }
        String rest = path.substring("/buckets/".length());
        int slash = rest.indexOf('/');
        String bucket = ObjectRequests.bucket(rest.substring(0, slash));
        if (route.equals(OBJECTS)) {
            requireMethod(method, "GET");
            return list(open, bucket, ex.getRequestURI().getRawQuery());
        }
        return object(ex, open, method, bucket, ObjectRequests.objectKey(rest.substring(slash + "/objects/".length())), path);
    }

    /** 200 when the store is open and the server takes requests; 503 with {@code Retry-After} otherwise. */
    private Reply ready() {
        if (draining) {
            return Reply.json(503, new Health("DRAINING"), Map.of("Retry-After", Long.toString(drainRetryAfterSeconds)));
        }
        if (store == null) {
            return Reply.json(503, new Health("OPENING"), Map.of("Retry-After", "1"));
        }
        if (!store.ready()) {
            return Reply.json(503, new Health("NO_LEADER"), Map.of("Retry-After", "1"));
        }
        return Reply.json(200, new Health("READY"), Map.of());
    }

    /** The store, or 503 while it opens or the server drains. */
    private ObjectStore openStore() {
        if (draining) {
            throw HttpError.unavailable("shutting down", drainRetryAfterSeconds);
        }
        ObjectStore open = store;
        if (open == null) {
            throw HttpError.unavailable("the store is still opening", 1);
        }
        return open;
    }

    private Reply object(HttpExchange ex, ObjectStore store, String method, String bucket, String key, String path)
            throws IOException {
        switch (method) {
            case "GET": {
                ObjectMeta meta = store.get(bucket, key);
                if (meta == null) {
                    throw new HttpError(404, "no object " + key + " in bucket " + bucket);
                }
                return Reply.json(200, ObjectView.of(meta), Map.of());
            }
            case "DELETE":
                if (!store.delete(bucket, key)) {
                    throw new HttpError(404, "no object " + key + " in bucket " + bucket);
                }
                return new Reply(204, null, null, Map.of());
            case "PUT": {
                ObjectMeta meta = ObjectRequests.toMeta(bucket, key, ObjectRequests.parse(readBody(ex)), clock.instant());
                boolean created = store.put(meta);
                return Reply.json(created ? 201 : 200, ObjectView.of(meta), created ? Map.of("Location", path) : Map.of());
            }
            default:
                throw HttpError.methodNotAllowed(method, "GET, PUT, DELETE");
        }
    }

    private static Reply list(ObjectStore store, String bucket, String rawQuery) {
        Map<String, String> query = ObjectRequests.query(rawQuery, Set.of("prefix", "limit", "startAfter", "continuationToken"));
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
        // As in S3's ListObjectsV2: a continuation token, when given, decides where the page starts.
        String startAfter = query.containsKey("continuationToken")
                ? fromToken(query.get("continuationToken")) : query.getOrDefault("startAfter", "");
        ObjectStore.Listing listing = store.list(bucket, prefix, startAfter, limit);
        return Reply.json(200, new ObjectListing(bucket, prefix, startAfter,
                listing.objects().stream().map(ObjectView::of).toList(), listing.truncated(),
                listing.lastKey() == null ? null : toToken(listing.lastKey())), Map.of());
    }

    /** An opaque continuation token for the page that starts after {@code lastKey}. */
    static String toToken(String lastKey) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(lastKey.getBytes(StandardCharsets.UTF_8));
    }

    private static String fromToken(String token) {
        try {
            String key = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            if (!key.isEmpty() && !ObjectRequests.hasControl(key)
                    && key.getBytes(StandardCharsets.UTF_8).length <= ObjectStore.MAX_OBJECT_KEY_BYTES) {
                return key;
            }
        } catch (IllegalArgumentException e) {
            // not base64: refused below
        }
        throw new HttpError(400, "continuationToken is not one this service handed out");
    }

    private ApiJson.Stats stats(ObjectStore store) {
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
        long declared = -1;
        if (length != null) {
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw new HttpError(400, "bad Content-Length: " + length);
            }
        }
        try (InputStream in = ex.getRequestBody()) {
            if (declared > DISCARDED_BODY_BYTES) {
                throw new HttpError(413, "body larger than " + maxBodyBytes + " bytes");
            }
            if (declared > maxBodyBytes) {
                throw tooLarge(in);
            }
            byte[] body = in.readNBytes(maxBodyBytes + 1);
            if (body.length > maxBodyBytes) {
                throw tooLarge(in);
            }
            return body;
        }
    }

    /**
     * The 413 of a body over the limit, once the rest of the body is read and thrown away (up to
     * {@link #DISCARDED_BODY_BYTES}). A server that closes a connection with request bytes still
     * unread makes the kernel reset it, and a client still sending its body then loses the answer
     * it has not yet read: the status arrives, the problem body does not. A longer body is cut off
     * with the connection, so that one client cannot keep a worker reading for long.
     */
    private HttpError tooLarge(InputStream rest) throws IOException {
        byte[] sink = new byte[8192];
        long discarded = 0;
        for (int n; discarded < DISCARDED_BODY_BYTES && (n = rest.read(sink)) >= 0; ) {
            discarded += n;
        }
        return new HttpError(413, "body larger than " + maxBodyBytes + " bytes");
    }

    private static void send(HttpExchange ex, Reply reply) throws IOException {
        Headers headers = ex.getResponseHeaders();
        reply.headers().forEach(headers::set);
        if (reply.body() == null) {
            ex.sendResponseHeaders(reply.status(), -1);
            return;
        }
        headers.set("Content-Type", reply.contentType());
        ex.sendResponseHeaders(reply.status(), reply.body().length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(reply.body());
        }
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw HttpError.methodNotAllowed(method, allowed);
        }
    }
}
