package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.WriteBatch;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A store of several small segments (plain puts, overwrites, deletes, batches and TTLs), and
 * what the verify and repair tests need around it: file fingerprints and what a reader sees.
 */
public final class DamagedStore {

    /**
     * Options of the store: 64 KiB segments, so a few thousand records make several, and no automatic
     * merge, which would fold them and their dead records into fewer before the tests damage them.
     */
    public static final BitCaskOptions OPTIONS = BitCaskOptions.builder().segmentSize(64 << 10).maxValueSize(1024)
            .autoMerge(false).build();
    /** Keys written with single puts, {@code k0} up to this. */
    public static final int KEYS = 1000;
    /** Batches written, {@code b<batch>-<member>}, five members each. */
    public static final int BATCHES = 40;

    private DamagedStore() {
    }

    /** Writes the store into {@code dir} and closes it, which leaves every segment with a hint. */
    public static void build(Path dir) {
        try (BitCask db = BitCask.open(dir, OPTIONS)) {
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < KEYS; k++) {
                    if ((k + round) % 7 == 0) {
                        db.delete("k" + k);
                    } else if (k % 11 == 0) {
                        db.put("k" + k, value(k, round), Duration.ofDays(3650));
                    } else {
                        db.put("k" + k, value(k, round));
                    }
                    if (k % 45 == 0) {
                        int batch = (round * KEYS + k) / 45 % BATCHES;
                        WriteBatch b = new WriteBatch();
                        for (int m = 0; m < 5; m++) {
                            b.put("b" + batch + "-" + m, value(batch * 5 + m, round));
                        }
                        db.write(b);
                    }
                }
            }
        }
    }

    /** The value of key number {@code k} in round {@code round}: 20 to 150 bytes. */
    public static byte[] value(int k, int round) {
        return ("r" + round + "-" + k + "-" + "v".repeat((k * 13 + round * 7) % 130)).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What a reader of a copy of {@code dir} sees for every key the store was written with: the
     * value, {@code <corrupt>} for a read that throws, or {@code <refused>} when open throws.
     */
    public static Map<String, String> contents(Path dir, Path scratch) throws IOException {
        copy(dir, scratch);
        Map<String, String> seen = new TreeMap<>();
        BitCask db;
        try {
            db = BitCask.open(scratch, BitCaskOptions.builder().readOnly(true).build());
        } catch (BitCaskException refused) {
            seen.put("", "<refused>");
            return seen;
        }
        try (db) {
            for (int k = 0; k < KEYS; k++) {
                seen.put("k" + k, read(db, "k" + k));
            }
            for (int b = 0; b < BATCHES; b++) {
                for (int m = 0; m < 5; m++) {
                    seen.put("b" + b + "-" + m, read(db, "b" + b + "-" + m));
                }
            }
        }
        return seen;
    }

    private static String read(BitCask db, String key) {
        try {
            byte[] v = db.get(key);
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        } catch (BitCaskException e) {
            return "<corrupt>";
        }
    }

    /**
     * Damages the data and hint files of {@code dir} as a disk or a careless person might: one to
     * four times, a file is cut at a random length (one time in four) or has one to eight bytes
     * flipped to other values.
     */
    public static void damageAtRandom(Path dir, Random rnd) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".data") || p.toString().endsWith(".hint")).sorted().toList();
        }
        int damages = 1 + rnd.nextInt(4);
        for (int d = 0; d < damages; d++) {
            Path f = files.get(rnd.nextInt(files.size()));
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                long len = raf.length();
                if (len == 0) {
                    continue;
                }
                if (rnd.nextInt(4) == 0) {
                    raf.setLength(rnd.nextLong(len));
                } else {
                    int flips = 1 + rnd.nextInt(8);
                    for (int i = 0; i < flips; i++) {
                        long pos = rnd.nextLong(len);
                        raf.seek(pos);
                        int b = raf.read();
                        raf.seek(pos);
                        raf.write(b ^ (1 + rnd.nextInt(255)));
                    }
                }
            }
        }
    }

    /** Changes the byte of {@code file} at {@code at} to another value. */
    public static void flip(Path file, long at) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x5A);
        }
    }

    /** Copies the regular files of {@code from} into the new directory {@code to}. */
    public static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    /** Name and SHA-256 of every regular file in {@code dir}: equal fingerprints mean nothing changed. */
    public static Map<String, String> fingerprint(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.put(f.getFileName().toString(), sha256(Files.readAllBytes(f)));
            }
        }
        return out;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The data file of segment {@code id} in {@code dir}. */
    public static Path data(Path dir, long id) {
        return dir.resolve(String.format("%09d.data", id));
    }

    /** The hint file of segment {@code id} in {@code dir}. */
    public static Path hint(Path dir, long id) {
        return dir.resolve(String.format("%09d.hint", id));
    }

    /** Number of data files in {@code dir}; ids run from 1 up to it after a build. */
    public static int segments(Path dir) throws IOException {
        return StoreFiles.dataFiles(dir).size();
    }
}
