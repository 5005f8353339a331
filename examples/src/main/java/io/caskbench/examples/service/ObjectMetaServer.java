package io.caskbench.examples.service;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * <p>{@link #close()} shuts down gracefully: new requests get 503, requests in progress get up to
 * the configured grace period to finish, then the listener stops and the store is closed, which
 * forces every write to disk and releases the directory lock.
 */
public final class ObjectMetaServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ObjectMetaServer.class);

    private final ServiceConfig config;
    private final ObjectStore store;
    private final ObjectApi api;
    private final ThreadPoolExecutor workers;
    private final HttpServer http;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ObjectMetaServer(ServiceConfig config, ObjectStore store) throws IOException {
        this.config = config;
        this.store = store;
        this.api = new ObjectApi(store, config.maxBodyBytes(), Clock.systemUTC());
        // Bounded on both ends: a fixed number of workers and a fixed queue. When both are full the
        // dispatcher thread runs the request itself and accepts nothing meanwhile, so overload
        // slows clients down instead of piling up requests in memory.
        this.workers = new ThreadPoolExecutor(config.threads(), config.threads(), 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(config.queueCapacity()),
                new ThreadFactoryBuilder().setNameFormat("http-worker-%d").build(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            this.http = HttpServer.create(new InetSocketAddress(InetAddress.getByName(config.bind()), config.port()), 0);
        } catch (IOException | RuntimeException e) {
            workers.shutdownNow();
            throw e;
        }
        http.setExecutor(workers);
        http.createContext("/", api);
        http.start();
    }

    /**
     * Opens the store and starts serving.
     *
     * @throws IOException when the address cannot be bound (the store is closed again)
     * @throws io.caskbench.bitcask.BitCaskLockedException when another process holds the data directory
     */
    public static ObjectMetaServer start(ServiceConfig config) throws IOException {
        ObjectStore store = ObjectStore.open(config.dataDir(), config.storeOptions());
        ObjectMetaServer server;
        try {
            server = new ObjectMetaServer(config, store);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        log.info("serving {} (data {}, backend {}, sync {}, {} workers, {} keys)", server.uri(),
                store.directory(), config.backend(), config.syncPolicy(), config.threads(), store.stats().keyCount());
        return server;
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

    /** Stops serving and closes the store; safe to call more than once and from a shutdown hook. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.info("shutting down: draining requests for up to {}", config.shutdownGrace());
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
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        store.close();
        log.info("store closed: {}", store.directory());
    }
}
