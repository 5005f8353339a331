package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.micrometer.BitCaskMetrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The service's metrics in a Micrometer registry that renders the Prometheus text format for
 * {@code GET /metrics}: requests by route, method and status with a latency histogram, and, once
 * the store is open, its meters from {@link BitCaskMetrics} (sizes, calls, merges, forces).
 * Thread-safe.
 */
final class ServiceMetrics {

    /** The media type of the Prometheus text exposition format that {@link #scrape()} writes. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final Duration[] LATENCY_BUCKETS = {
        Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1),
        Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** Registers the JVM's meters; the store's come with {@link #store}. */
    ServiceMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Registers the meters of the store, once it is open, tagged {@code store=<name>}. */
    void store(BitCask db, String name) {
        new BitCaskMetrics(db, name).bindTo(registry);
    }

    /**
     * Records one answered request. {@code route} is the path template, such as
     * {@code /buckets/{bucket}/objects/{key}}, so that the number of series stays bounded.
     */
    void request(String route, String method, int status, long nanos) {
        Timer.builder("http.server.requests")
                .description("HTTP requests answered, by route, method and status")
                .tags("route", route, "method", method, "status", Integer.toString(status))
                // Fixed buckets, from a fast GET to a slow forced write, instead of Micrometer's ~70 per series.
                .serviceLevelObjectives(LATENCY_BUCKETS)
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Every meter in the Prometheus text format. */
    String scrape() {
        return registry.scrape();
    }
}
