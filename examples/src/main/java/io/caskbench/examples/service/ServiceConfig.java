package io.caskbench.examples.service;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the service is configured with. {@link ObjectMetaService} fills it from flags and
 * environment variables; tests build it directly.
 *
 * @param dataDir       the BitCask directory
 * @param bind          the address to listen on; loopback unless the service is meant to be reachable
 * @param port          the TCP port, 0 for any free one
 * @param backend       the store's segment backend
 * @param syncPolicy    the store's sync policy
 * @param threads       worker threads that handle requests
 * @param queueCapacity requests that may wait for a worker; beyond that the HTTP dispatcher runs
 *                      the request itself, which stops it accepting connections meanwhile (back-pressure)
 * @param maxBodyBytes  largest request body; larger ones get 413
 * @param shutdownGrace how long shutdown waits for requests in progress
 * @param mergeCheck    how often the service checks whether the store is due a merge (the store's
 *                      dead-bytes thresholds); zero for never
 */
public record ServiceConfig(Path dataDir, String bind, int port, Backend backend, SyncPolicy syncPolicy,
                            int threads, int queueCapacity, int maxBodyBytes, Duration shutdownGrace,
                            Duration mergeCheck) {

    /** Default time between merge checks: one minute. */
    public static final Duration DEFAULT_MERGE_CHECK = Duration.ofMinutes(1);

    /** Default request body limit: object metadata is small, 16 KiB is generous. */
    public static final int DEFAULT_MAX_BODY_BYTES = 16 * 1024;

    /** Validates the values. */
    public ServiceConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(syncPolicy, "syncPolicy");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(mergeCheck, "mergeCheck");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (threads < 1 || queueCapacity < 1 || maxBodyBytes < 1 || shutdownGrace.isNegative() || mergeCheck.isNegative()) {
            throw new IllegalArgumentException(
                    "threads, queue capacity and body limit must be positive, grace and merge check >= 0");
        }
    }

    /** Loopback, a free port, the default store options, 8 workers: what tests start. */
    public static ServiceConfig defaults(Path dataDir) {
        return new ServiceConfig(dataDir, "127.0.0.1", 0, Backend.MAPPED, SyncPolicy.NONE, 8, 256,
                DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(5), DEFAULT_MERGE_CHECK);
    }

    /** The same configuration with another backend: both read the same files. */
    public ServiceConfig withBackend(Backend other) {
        return new ServiceConfig(dataDir, bind, port, other, syncPolicy, threads, queueCapacity, maxBodyBytes, shutdownGrace,
                mergeCheck);
    }

    /** The same configuration on another port. */
    public ServiceConfig withPort(int other) {
        return new ServiceConfig(dataDir, bind, other, backend, syncPolicy, threads, queueCapacity, maxBodyBytes, shutdownGrace,
                mergeCheck);
    }

    /**
     * The options the store is opened with. No automatic merge: the service checks whether a merge is due
     * itself, at {@code --merge-check}, so that an operator sets one interval and sees each merge in the log.
     */
    public BitCaskOptions storeOptions() {
        return BitCaskOptions.builder().backend(backend).syncPolicy(syncPolicy).autoMerge(false).build();
    }
}
