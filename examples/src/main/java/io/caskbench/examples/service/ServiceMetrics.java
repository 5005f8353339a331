package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.MergeResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The service's metrics in a Micrometer registry that renders the Prometheus text format for
 * {@code GET /metrics}: requests by route, method and status with a latency histogram, the store's
 * size and fragmentation, and the merges the service ran. Thread-safe.
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
    private final Timer merges;
    private final Counter reclaimed;

    /**
     * Registers the meters. {@code stats} gives the store's current figures, or null while no
     * store is open; the store gauges then read NaN, which Prometheus shows as a gap.
     */
    ServiceMetrics(Supplier<BitCaskStats> stats) {
        storeGauge("bitcask.keys", "Live keys in the store", null, stats, BitCaskStats::keyCount);
        storeGauge("bitcask.live", "Bytes of current records", "bytes", stats, BitCaskStats::liveBytes);
        storeGauge("bitcask.dead", "Bytes of overwritten, deleted and expired records: what a merge reclaims",
                "bytes", stats, BitCaskStats::deadBytes);
        storeGauge("bitcask.disk", "Bytes of data and hint files", "bytes", stats, BitCaskStats::diskBytes);
        storeGauge("bitcask.segments", "Segment files", null, stats, BitCaskStats::segmentCount);
        merges = Timer.builder("bitcask.merge").description("Merges the service ran, and how long they took")
                .register(registry);
        reclaimed = Counter.builder("bitcask.merge.reclaimed").baseUnit("bytes")
                .description("Bytes merges gave back to the file system").register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
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

    /** Records a merge the service ran. */
    void merged(MergeResult result, long nanos) {
        merges.record(nanos, TimeUnit.NANOSECONDS);
        reclaimed.increment(Math.max(0, result.bytesReclaimed()));
    }

    /** Every meter in the Prometheus text format. */
    String scrape() {
        return registry.scrape();
    }

    private void storeGauge(String name, String description, String unit, Supplier<BitCaskStats> stats,
                            ToDoubleFunction<BitCaskStats> value) {
        Gauge.builder(name, stats, s -> {
                    BitCaskStats now = s.get();
                    return now == null ? Double.NaN : value.applyAsDouble(now);
                })
                .description(description)
                .baseUnit(unit)
                .strongReference(true)
                .register(registry);
    }
}
