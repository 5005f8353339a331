package io.caskbench.bench.store.adapter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;

/**
 * Chronicle Map persisted to a file, with its fastest settings.
 *
 * <ul>
 *   <li>Sized up front with {@code entries} and constant key/value sizes where the workload has them,
 *       so it never has to grow or fall back to variable-size entry handling.</li>
 *   <li>Persisted to a memory-mapped file and never forced, which matches BitCask {@code NONE}.</li>
 *   <li>The fork runs with {@code -Dchronicle.analytics.disable=true}; otherwise the library writes to
 *       the home directory and tries to reach the network.</li>
 *   <li>Up to {@value #MAX_SEGMENTS} segments, at least {@value #MIN_ENTRIES_PER_SEGMENT} entries each:
 *       Chronicle Map's segment locks spin (with {@code Thread.onSpinWait}) and offer no backoff setting,
 *       so the knob it has is the number of segments; with many, 1000 writers rarely meet on one lock
 *       and a preempted holder stalls fewer spinners. It costs no durability (the same mapped file,
 *       never forced) and no semantics (each key still lives in exactly one segment under its lock),
 *       only a few bytes of segment header each, so it is the setting of every row, one thread
 *       included. The floor on entries per segment keeps a small map's segments from filling up
 *       unevenly.</li>
 * </ul>
 */
final class ChronicleMapStore implements StoreAdapter {

    /** The most segments: eight per gang thread. */
    static final int MAX_SEGMENTS = 8_192;
    /** The fewest entries a segment is sized for. */
    static final int MIN_ENTRIES_PER_SEGMENT = 128;

    private final ChronicleMap<byte[], byte[]> map;

    ChronicleMapStore(Path dir, StoreConfig config) {
        // Headroom: a Chronicle Map refuses inserts once a segment is full.
        long entries = Math.max(1_000, config.expectedKeys() + config.expectedKeys() / 10);
        ChronicleMapBuilder<byte[], byte[]> builder = ChronicleMapBuilder.of(byte[].class, byte[].class)
                .name("caskbench")
                .entries(entries)
                .actualSegments(segments(entries))
                .constantValueSizeBySample(new byte[config.valueSize()]);
        builder = config.fixedKeySize()
                ? builder.constantKeySizeBySample(new byte[config.keySize()])
                : builder.averageKeySize(config.keySize());
        try {
            map = builder.createPersistedTo(dir.resolve("map.dat").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Segments for a map of {@code entries}: a power of two, at most {@link #MAX_SEGMENTS}. */
    static int segments(long entries) {
        return (int) Math.max(1, Math.min(MAX_SEGMENTS, Long.highestOneBit(entries / MIN_ENTRIES_PER_SEGMENT)));
    }

    /** The segments the open map has: what {@link #segments} chose, whatever the row reads or writes. */
    int segmentCount() {
        return map.segments();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        map.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public void settle() {
        // Nothing is buffered outside the mapping.
    }

    @Override
    public void close() {
        map.close();
    }
}
