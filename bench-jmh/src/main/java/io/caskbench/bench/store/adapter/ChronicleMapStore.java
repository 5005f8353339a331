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
 *   <li>{@code CHRONICLE_MAP_TUNED}, a sensitivity row for 1000-thread puts: Chronicle Map's segment
 *       locks spin (with {@code Thread.onSpinWait}) and offer no backoff setting, so the knob it has is
 *       the number of segments: {@value #TUNED_SEGMENTS}, so that 1000 writers rarely meet on one lock
 *       and a preempted holder stalls fewer spinners.</li>
 * </ul>
 */
final class ChronicleMapStore implements StoreAdapter {

    /** Segments of the tuned row: eight per gang thread. */
    static final int TUNED_SEGMENTS = 8_192;

    private final ChronicleMap<byte[], byte[]> map;

    ChronicleMapStore(Path dir, StoreConfig config, boolean manySegments) {
        ChronicleMapBuilder<byte[], byte[]> builder = ChronicleMapBuilder.of(byte[].class, byte[].class)
                .name("caskbench")
                // Headroom: a Chronicle Map refuses inserts once a segment is full.
                .entries(Math.max(1_000, config.expectedKeys() + config.expectedKeys() / 10))
                .constantValueSizeBySample(new byte[config.valueSize()]);
        builder = config.fixedKeySize()
                ? builder.constantKeySizeBySample(new byte[config.keySize()])
                : builder.averageKeySize(config.keySize());
        if (manySegments) {
            builder = builder.actualSegments(TUNED_SEGMENTS);
        }
        try {
            map = builder.createPersistedTo(dir.resolve("map.dat").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
