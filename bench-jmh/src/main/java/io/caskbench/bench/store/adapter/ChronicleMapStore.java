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
 * </ul>
 */
final class ChronicleMapStore implements StoreAdapter {

    private final ChronicleMap<byte[], byte[]> map;

    ChronicleMapStore(Path dir, StoreConfig config) {
        ChronicleMapBuilder<byte[], byte[]> builder = ChronicleMapBuilder.of(byte[].class, byte[].class)
                .name("caskbench")
                // Headroom: a Chronicle Map refuses inserts once a segment is full.
                .entries(Math.max(1_000, config.expectedKeys() + config.expectedKeys() / 10))
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
