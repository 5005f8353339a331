package io.caskbench.examples.service;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.sun.net.httpserver.HttpServer;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.MergeResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The object-metadata service: an {@link ObjectStore} served over HTTP by the JDK's built-in
 * {@link HttpServer}, from a bounded pool of worker threads.
 *
 * <pre>{@code
 * try (ObjectMetaServer server = ObjectMetaServer.start(ServiceConfig.defaults(Path.of("data/objects")))) {
 *     URI base = server.uri();   // http://127.0.0.1:<free port>
 * }
 * }</pre>
 *
 * <p>The server listens before the store is open, so that {@code /health} answers and
 * {@code /ready} reports 503 while a large store is scanned; {@link #start} waits for the open,
 * {@link #listen} does not. {@link #close()} shuts down gracefully: new requests get 503,
 * requests in progress get up to the configured grace period to finish, then the listener stops
 * and the store is closed, which forces every write to disk and releases the directory lock.
 */
public final class ObjectMetaServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ObjectMetaServer.class);

    private final ServiceConfig config;
    private final ServiceMetrics metrics;
    private final ObjectApi api;
    private final ThreadPoolExecutor workers;
    private final HttpServer http;
    private final ScheduledExecutorService merger;
    private final CompletableFuture<ObjectStore> opening;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ObjectMetaServer(ServiceConfig config, Function<ServiceConfig, ObjectStore> opener) throws IOException {
        this.config = config;
        this.metrics = new ServiceMetrics();
        this.api = new ObjectApi(metrics, config.maxBodyBytes(), Clock.systemUTC(),
                Math.max(1, config.shutdownGrace().toSeconds()));
        // Bounded on both ends: a fixed number of workers and a fixed queue. When both are full the
        // dispatcher thread runs the request itself and accepts nothing meanwhile, so overload
        // slows clients down instead of piling up requests in memory.
        this.workers = new ThreadPoolExecutor(config.threads(), config.threads(), 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(config.queueCapacity()),
                new ThreadFactoryBuilder().setNameFormat("http-worker-%d").build(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            this.http = bind(config);
        } catch (IOException | RuntimeException e) {
            workers.shutdownNow();
            throw e;
        }
        http.setExecutor(workers);
        http.createContext("/", api);
        http.start();
        this.merger = Executors.newSingleThreadScheduledExecutor(
                new ThreadFactoryBuilder().setNameFormat("merge-check").setDaemon(true).build());
        this.opening = new CompletableFuture<>();
        Thread open = new Thread(() -> {
            try {
                ObjectStore store = opener.apply(config);
                // Ready before the future completes, so that awaitOpen() returns a server that serves.
                opened(store);
                opening.complete(store);
            } catch (Throwable e) {
                opening.completeExceptionally(e);
            }
        }, "store-open");
        open.start();
    }

    /**
     * Listens, opens the store and returns once it is open.
     *
     * @throws IOException when the address cannot be bound; the message names the address and port
     * @throws io.caskbench.bitcask.BitCaskLockedException when another process holds the data directory
     */
    public static ObjectMetaServer start(ServiceConfig config) throws IOException {
        ObjectMetaServer server = listen(config);
        server.awaitOpen();
        return server;
    }

    /**
     * Listens and returns at once, while the store opens on a thread of its own: until then
     * {@code /ready} and the object routes answer 503. {@link #awaitOpen()} waits for the open.
     *
     * @throws IOException when the address cannot be bound; the message names the address and port
     */
    public static ObjectMetaServer listen(ServiceConfig config) throws IOException {
        return listen(config, c -> ObjectStore.open(c.dataDir(), c.storeOptions()));
    }

    /** {@link #listen(ServiceConfig)} with the store opened by {@code opener}: tests slow the open down. */
    static ObjectMetaServer listen(ServiceConfig config, Function<ServiceConfig, ObjectStore> opener) throws IOException {
        return new ObjectMetaServer(config, opener);
    }

    /**
     * Waits until the store is open. When it cannot be opened the server is closed and the
     * cause is thrown, for example {@link io.caskbench.bitcask.BitCaskLockedException}.
     */
    public void awaitOpen() {
        try {
            opening.join();
        } catch (CompletionException e) {
            close();
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** The address the server listens on, with the actual port when 0 was configured. */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    /** The base URI of the API, e.g. {@code http://127.0.0.1:8080}. */
    public URI uri() {
        InetAddress a = address().getAddress();
        String host = a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        return URI.create("http://" + host + ":" + address().getPort());
    }

    /** Requests being answered right now. */
    int requestsInProgress() {
        return api.inFlight();
    }

    /**
     * Merges the store now when its dead bytes cross the store options' thresholds, as the
     * periodic check does; returns what the merge did, or null when none was due.
     */
    MergeResult mergeIfDue() {
        ObjectStore store = api.store();
        if (store == null || closed.get() || store.local().isEmpty()) { // replicas merge their own stores
            return null;
        }
        BitCaskStats s = store.stats();
        BitCaskOptions o = store.options();
        long dead = s.deadBytes();
        boolean due = dead >= o.mergeDeadBytes() || (dead > 0 && s.deadRatio() >= o.mergeDeadRatio());
        if (!due || s.segmentCount() < 2) {
            return null;
        }
        MergeResult result = store.merge();
        log.info("merged {}: reclaimed {} bytes in {} ms", store.directory(), result.bytesReclaimed(), result.millis());
        return result;
    }

    /** Stops serving and closes the store; safe to call more than once and from a shutdown hook. */
    /** A duration as a person writes it, {@code 5 s} or {@code 250 ms}, not {@code PT5S}. */
    static String readable(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.info("shutting down: draining requests for up to {}", readable(config.shutdownGrace()));
        merger.shutdownNow();
        try {
            int left = api.drain(config.shutdownGrace().toNanos());
            if (left > 0) {
                log.warn("{} requests still running after the grace period; stopping anyway", left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        http.stop(0);
        workers.shutdown();
        try {
            if (!workers.awaitTermination(config.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                workers.shutdownNow();
            }
            merger.awaitTermination(config.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        // A store still opening is closed once it is open; one that failed to open has nothing to close.
        ObjectStore store = opening.exceptionally(e -> null).join();
        if (store != null) {
            store.close();
            log.info("store closed: {}", store.describe());
        }
    }

    private void opened(ObjectStore store) {
        if (store.local().isEmpty()) {
            api.opened(store);
            log.info("serving {} ({}, {} workers)", uri(), store.describe(), config.threads());
            return;
        }
        metrics.store(store.local().get(), storeName(store));
        api.opened(store);
        log.info("serving {} (data {}, backend {}, sync {}, {} workers, {} keys)", uri(), store.directory(),
                config.backend(), config.syncPolicy(), config.threads(), store.stats().keyCount());
        long every = config.mergeCheck().toMillis();
        if (every > 0 && !closed.get()) {
            try {
                merger.scheduleWithFixedDelay(this::checkMerge, every, every, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closedMeanwhile) {
                // close() ran while the store opened: nothing to schedule
            }
        }
    }

    private void checkMerge() {
        try {
            mergeIfDue();
        } catch (RuntimeException e) {
            log.warn("merge of {} failed: {}", config.dataDir(), e.toString());
        }
    }

    /** The store's tag on its meters: its directory's name. */
    private static String storeName(ObjectStore store) {
        Path name = store.directory().getFileName();
        return name == null ? store.directory().toString() : name.toString();
    }

    /** Binds the listener; a port clash names the address and port, and how to choose another. */
    private static HttpServer bind(ServiceConfig config) throws IOException {
        try {
            return HttpServer.create(new InetSocketAddress(InetAddress.getByName(config.bind()), config.port()), 0);
        } catch (BindException e) {
            BindException named = new BindException("cannot listen on " + config.bind() + ":" + config.port() + ": "
                    + e.getMessage() + "; another process may hold port " + config.port()
                    + " (choose another with --port or CASKBENCH_PORT)");
            named.initCause(e);
            throw named;
        }
    }
}
