package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.WriteBatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A store written as {@code bitcask load} writes one: {@link #BATCHES} atomic batches of
 * {@link #BATCH} records, keys {@code key00000} on, and the damage the batch tests make to it.
 */
public final class BatchStore {

    /** Records per batch. */
    public static final int BATCH = 1000;
    /** Batches written. */
    public static final int BATCHES = 2;

    private BatchStore() {
    }

    /** Writes the batches into {@code dir} and closes the store, which leaves every segment with a hint. */
    public static void build(Path dir, BitCaskOptions options) {
        try (BitCask db = BitCask.open(dir, options)) {
            for (int b = 0; b < BATCHES; b++) {
                WriteBatch batch = new WriteBatch();
                for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
                    batch.put(key(i), value(i));
                }
                db.write(batch);
            }
        }
    }

    /** Key number {@code i}. */
    public static String key(int i) {
        return String.format("key%05d", i);
    }

    /** The value of key number {@code i}: 92 bytes. */
    public static byte[] value(int i) {
        return (String.format("value-%05d-", i) + "x".repeat(80)).getBytes(StandardCharsets.UTF_8);
    }

    /** Flips a byte inside the value of key {@code i} in {@code data}; returns where the value starts. */
    public static long damageValue(Path data, int i) throws IOException {
        long at = new String(Files.readAllBytes(data), StandardCharsets.ISO_8859_1).indexOf(String.format("value-%05d-", i));
        if (at < 0) {
            throw new IllegalStateException("no value of " + key(i) + " in " + data);
        }
        DamagedStore.flip(data, at + 20);
        return at;
    }
}
