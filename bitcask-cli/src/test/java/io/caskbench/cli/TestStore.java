package io.caskbench.cli;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.WriteBatch;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Stores built through the API for the jar's tests, and the ways the tests damage them. */
final class TestStore {

    /** Small segments, so a few thousand records make several. */
    static final BitCaskOptions SMALL_SEGMENTS = BitCaskOptions.builder().segmentSize(64 << 10).autoMerge(false).build();
    /** The defaults without automatic merge: a test store keeps the layout its test wrote. */
    static final BitCaskOptions PLAIN = BitCaskOptions.builder().autoMerge(false).build();

    private TestStore() {
    }

    /**
     * Writes {@code keys} keys three times over (some deleted, every 50th in a batch) and closes
     * the store, which leaves every segment with a hint file.
     */
    static void build(Path dir, int keys) {
        try (BitCask db = BitCask.open(dir, SMALL_SEGMENTS)) {
            for (int round = 0; round < 3; round++) {
                WriteBatch batch = new WriteBatch();
                for (int k = 0; k < keys; k++) {
                    byte[] value = ("round " + round + " of key " + k + " " + "x".repeat(k % 90)).getBytes(StandardCharsets.UTF_8);
                    if ((k + round) % 9 == 0) {
                        db.delete("key" + k);
                    } else if (k % 50 == 0) {
                        batch.put("key" + k, value);
                        if (batch.size() == 4) {
                            db.write(batch);
                            batch.clear();
                        }
                    } else {
                        db.put("key" + k, value);
                    }
                }
                db.write(batch);
            }
        }
    }

    /**
     * Writes {@code records} keys {@code key00000}, {@code key00001}, … in atomic batches of
     * {@code batch}, as {@code bitcask load} does, and closes the store.
     */
    static void batches(Path dir, int records, int batch, BitCaskOptions options) {
        try (BitCask db = BitCask.open(dir, options)) {
            WriteBatch b = new WriteBatch();
            for (int i = 0; i < records; i++) {
                b.put(batchKey(i), batchValue(i));
                if (b.size() == batch || i == records - 1) {
                    db.write(b);
                    b.clear();
                }
            }
        }
    }

    /** Key {@code i} of {@link #batches}. */
    static String batchKey(int i) {
        return String.format("key%05d", i);
    }

    /** The value of key {@code i} of {@link #batches}: 92 bytes. */
    static byte[] batchValue(int i) {
        return (String.format("value-%05d-", i) + "x".repeat(80)).getBytes(StandardCharsets.UTF_8);
    }

    /** Flips a byte in the middle of the value of key {@code i} of {@link #batches} in {@code data}. */
    static void flipValue(Path data, int i) throws IOException {
        long at = new String(Files.readAllBytes(data), StandardCharsets.ISO_8859_1).indexOf(String.format("value-%05d-", i));
        if (at < 0) {
            throw new IllegalStateException("no value of " + batchKey(i) + " in " + data);
        }
        flip(data, at + 40, 0x5A);
    }

    static Path data(Path dir, long id) {
        return dir.resolve(String.format("%09d.data", id));
    }

    static Path hint(Path dir, long id) {
        return dir.resolve(String.format("%09d.hint", id));
    }

    /** The number of data files; after {@link #build} their ids run from 1 up to it. */
    static int segments(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.filter(f -> f.toString().endsWith(".data")).count();
        }
    }

    /**
     * Every regular file of {@code dir} by name, with a digest of its content; not the LOCK file,
     * which whoever takes the lock (repair, even a dry run) rewrites with its pid.
     */
    static Map<String, String> fingerprint(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(f -> Files.isRegularFile(f) && !f.endsWith("LOCK")).toList()) {
                out.put(f.getFileName().toString(), digest(Files.readAllBytes(f)));
            }
        }
        return out;
    }

    private static String digest(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** XORs the byte at {@code at} with {@code mask}. */
    static void flip(Path file, long at, int mask) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ mask);
        }
    }

    /** Writes {@code n} zero bytes at {@code at}. */
    static void zero(Path file, long at, int n) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            f.write(new byte[n]);
        }
    }

    /** Cuts {@code file} {@code by} bytes short. */
    static void cut(Path file, long by) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(f.length() - by);
        }
    }
}
