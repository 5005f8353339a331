package io.caskbench.bitcask.micrometer;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskCounters;
import io.caskbench.bitcask.BitCaskStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Threading: immutable; {@link #bindTo} from any thread, and the meters are read from any thread.
 *
 * <p>A Micrometer {@link MeterBinder} for one store: its keys, live, dead, disk and index bytes and
 * segments as gauges (from {@link BitCask#stats()}), its merge debt as a gauge, and its puts, gets,
 * deletes, merges, forces and stalled puts with their time, the bytes merges reclaimed and the writes
 * refused after a failed force as counters and timers (from {@link BitCask#counters()}). Every meter is
 * tagged {@code store=<name>}.
 *
 * <pre>{@code
 * new BitCaskMetrics(db, "objects").bindTo(registry);
 * }</pre>
 *
 * <p>The meters hold the store weakly: a store the application let go reads as NaN, and one that
 * is closed keeps its counts while its gauges read NaN. A scrape reads the counters without a
 * lock and each gauge calls {@code stats()}, which walks the segment list.
 */
public final class BitCaskMetrics implements MeterBinder {

    /** Final, safe everywhere. */
    private final BitCask store;
    /** The store's tag and any the caller added; final, safe everywhere. */
    private final Tags tags;

    /** Meters of {@code store}, tagged {@code store=<name>}. */
    public BitCaskMetrics(BitCask store, String name) {
        this(store, name, List.of());
    }

    /** Meters of {@code store}, tagged {@code store=<name>} and with {@code extraTags}. */
    public BitCaskMetrics(BitCask store, String name, Iterable<Tag> extraTags) {
        this.store = Objects.requireNonNull(store, "store");
        this.tags = Tags.of("store", Objects.requireNonNull(name, "name")).and(extraTags);
    }

    /** Registers the store's meters in {@code registry}. */
    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "bitcask.keys", "Live keys in the store", null, BitCaskStats::keyCount);
        gauge(registry, "bitcask.live", "Bytes of the records that are current values of live keys", BaseUnits.BYTES,
                BitCaskStats::liveBytes);
        gauge(registry, "bitcask.dead", "Bytes of overwritten, deleted and expired records: what a merge reclaims",
                BaseUnits.BYTES, BitCaskStats::deadBytes);
        gauge(registry, "bitcask.disk", "Bytes of the store's data and hint files", BaseUnits.BYTES, BitCaskStats::diskBytes);
        gauge(registry, "bitcask.index", "Heap bytes of the key directory", BaseUnits.BYTES, BitCaskStats::indexBytes);
        gauge(registry, "bitcask.segments", "Segment files", null, BitCaskStats::segmentCount);
        counter(registry, "bitcask.puts", "Puts since open, batch members included", null, BitCaskCounters::puts);
        counter(registry, "bitcask.gets", "Gets since open", null, BitCaskCounters::gets);
        counter(registry, "bitcask.deletes", "Deletes since open, batch members included", null, BitCaskCounters::deletes);
        counter(registry, "bitcask.merge.reclaimed", "Bytes merges gave back to the file system", BaseUnits.BYTES,
                BitCaskCounters::mergeReclaimedBytes);
        counter(registry, "bitcask.refused.writes", "Writes refused because a force failed; the store needs a reopen",
                null, BitCaskCounters::refusedWrites);
        FunctionTimer.builder("bitcask.merges", store, s -> s.counters().merges(),
                        s -> s.counters().mergeTime().toNanos(), TimeUnit.NANOSECONDS)
                .description("Merges that rewrote something, and their wall time")
                .tags(tags)
                .register(registry);
        FunctionTimer.builder("bitcask.forces", store, s -> s.counters().forces(),
                        s -> s.counters().forceTime().toNanos(), TimeUnit.NANOSECONDS)
                .description("Forces made for durability (sync, the interval's sync, writes under ALWAYS), and their wall time")
                .tags(tags)
                .register(registry);
        FunctionTimer.builder("bitcask.stalls", store, s -> s.counters().stalledPuts(),
                        s -> s.counters().stallTime().toNanos(), TimeUnit.NANOSECONDS)
                .description("Puts and batches delayed or stopped because merges fell behind the space bound, and their time waiting")
                .tags(tags)
                .register(registry);
        // From the counters, not stats(): the debt daemon's last figure, so it still reads after close.
        Gauge.builder("bitcask.merge.debt", store, s -> s.counters().mergeDebtBytes())
                .description("Data bytes over the level where automatic merges start: what merges owe")
                .baseUnit(BaseUnits.BYTES)
                .tags(tags)
                .register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, String unit,
                       ToDoubleFunction<BitCaskStats> value) {
        Gauge.builder(name, store, s -> {
                    try {
                        return value.applyAsDouble(s.stats());
                    } catch (IllegalStateException closed) {
                        return Double.NaN;
                    }
                })
                .description(description)
                .baseUnit(unit)
                .tags(tags)
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, String unit,
                         ToLongFunction<BitCaskCounters> value) {
        FunctionCounter.builder(name, store, s -> value.applyAsLong(s.counters()))
                .description(description)
                .baseUnit(unit)
                .tags(tags)
                .register(registry);
    }
}
