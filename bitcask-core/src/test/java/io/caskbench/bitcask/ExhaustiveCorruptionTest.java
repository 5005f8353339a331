package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.MutableClock;
import io.caskbench.bitcask.testing.PowerLossBackend;
import io.caskbench.bitcask.testing.ScratchDir;
import io.caskbench.bitcask.testing.Step;
import io.caskbench.bitcask.testing.StoreState;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Damage at every byte of every data and hint file of a small store: each byte flipped, each byte
 * zeroed, and each file truncated at each offset, one damage at a time. Open must never fail, and
 * every read must return null, exactly a value once written to that key, or throw
 * {@link BitCaskCorruptionException}; never other bytes. The store holds a few dozen records
 * (a batch, tombstones, TTL records) in two segments with hint files: a merged one and the active
 * one. {@code -Dcaskbench.exhaustive=true} also flips each bit of each byte on its own.
 */
class ExhaustiveCorruptionTest {

    private static final boolean EXHAUSTIVE = Boolean.getBoolean("caskbench.exhaustive");

    @TempDir
    Path tmp;

    /** One kind of damage to one byte offset of a file. */
    private enum Damage {
        FLIP, ZERO, TRUNCATE, BIT0, BIT1, BIT2, BIT3, BIT4, BIT5, BIT6, BIT7;

        /** The damaged content, or null when this damage would change nothing. */
        byte[] apply(byte[] content, int offset) {
            if (this == TRUNCATE) {
                return Arrays.copyOf(content, offset);
            }
            byte[] d = content.clone();
            d[offset] = switch (this) {
                case FLIP -> (byte) ~d[offset];
                case ZERO -> 0;
                default -> (byte) (d[offset] ^ (1 << (ordinal() - BIT0.ordinal())));
            };
            return d[offset] == content[offset] ? null : d;
        }
    }

    private static BitCaskOptions options(Backend backend) {
        return BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).clock(new MutableClock(1_700_000_000_000L)).build();
    }

    /** Builds the store; returns every value each key was ever given. */
    private static Map<String, List<byte[]>> build(Path dir, BitCaskOptions o) {
        Random rnd = new Random(42);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            steps.add(Step.put("a" + i, small(rnd)));
        }
        steps.add(Step.putTtl("t0", small(rnd)));
        steps.add(Step.batch(List.of(Step.put("b0", small(rnd)), Step.put("b1", small(rnd)), Step.delete("a2"))));
        steps.add(Step.delete("a3"));
        for (int i = 0; i < 16; i++) {
            steps.add(Step.put("f" + i, new byte[4500])); // fills the first segment: a rollover
        }
        for (int i = 0; i < 16; i++) {
            steps.add(Step.delete("f" + i));
        }
        steps.add(Step.mergeAll()); // both segments into one small one with a hint file
        for (int i = 0; i < 10; i++) {
            steps.add(Step.put("c" + i, small(rnd)));
        }
        steps.add(Step.batch(List.of(Step.put("c10", small(rnd)), Step.delete("c0"), Step.put("a1", small(rnd)))));
        steps.add(Step.delete("c1"));
        steps.add(Step.putTtl("t1", small(rnd)));
        steps.add(Step.put("a4", small(rnd)));
        Map<String, List<byte[]>> written = new TreeMap<>();
        try (BitCask db = BitCask.open(dir, o)) {
            for (Step s : steps) {
                s.runOn(db, null);
                List<Step> puts = s.kind() == Step.Kind.BATCH ? s.batch() : List.of(s);
                for (Step p : puts) {
                    written.computeIfAbsent(p.key() == null ? "" : p.key(), k -> new ArrayList<>());
                    if (p.value() != null) {
                        written.get(p.key()).add(p.value());
                    }
                }
            }
        }
        written.remove("");
        return written;
    }

    private static byte[] small(Random rnd) {
        byte[] v = new byte[rnd.nextInt(60)];
        rnd.nextBytes(v);
        return v;
    }

    @EveryBackend
    void noDamagedByteFailsOpenOrIsReadAsAValue(Backend backend) {
        BitCaskOptions o = options(backend);
        List<Damage> damages = EXHAUSTIVE ? List.of(Damage.values()) : List.of(Damage.FLIP, Damage.ZERO, Damage.TRUNCATE);
        List<String> failures = new ArrayList<>();
        int cases = 0;
        try (ScratchDir scratch = ScratchDir.create(tmp, "corrupt")) {
            Path dir = scratch.path().resolve("db");
            Map<String, List<byte[]>> written = build(dir, o);
            Map<String, byte[]> pristine = PowerLossBackend.filesIn(dir);
            assertThat(pristine.keySet().stream().filter(n -> n.endsWith(".data")).count()).as("data files of %s", pristine.keySet())
                    .isBetween(2L, 3L);
            assertThat(pristine.keySet().stream().filter(n -> n.endsWith(".hint")).count()).as("hint files of %s", pristine.keySet())
                    .isGreaterThanOrEqualTo(2L);
            String intact = check(dir, o, written);
            assertThat(intact).as("the undamaged store").isNull();
            for (Map.Entry<String, byte[]> file : pristine.entrySet()) {
                byte[] content = file.getValue();
                for (int offset = 0; offset < content.length; offset++) {
                    for (Damage d : damages) {
                        byte[] damaged = d.apply(content, offset);
                        if (damaged == null) {
                            continue;
                        }
                        restore(dir, pristine, file.getKey(), damaged);
                        cases++;
                        String problem = check(dir, o, written);
                        if (problem != null) {
                            failures.add(file.getKey() + " " + d + " at " + offset + ": " + problem);
                        }
                    }
                }
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cases + " damages broke the contract (" + backend + "):\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(40, failures.size()))));
        }
    }

    /** Puts back the pristine files, {@code damagedFile} with {@code damaged} content, and removes any other file. */
    private static void restore(Path dir, Map<String, byte[]> pristine, String damagedFile, byte[] damaged) {
        try {
            for (String present : PowerLossBackend.filesIn(dir).keySet()) {
                if (!pristine.containsKey(present)) {
                    Files.delete(dir.resolve(present));
                }
            }
            for (Map.Entry<String, byte[]> f : pristine.entrySet()) {
                Files.write(dir.resolve(f.getKey()), f.getKey().equals(damagedFile) ? damaged : f.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens the store and reads every key; returns what broke the contract, or null. */
    private static String check(Path dir, BitCaskOptions o, Map<String, List<byte[]>> written) {
        BitCask db;
        try {
            db = BitCask.open(dir, o);
        } catch (RuntimeException e) {
            return "open failed: " + e;
        }
        String problem = null;
        try {
            for (String key : written.keySet()) {
                problem = problem != null ? problem : read(db, key, written.get(key));
            }
            if (problem == null) {
                try {
                    for (Map.Entry<String, byte[]> e : StoreState.read(db).entrySet()) {
                        List<byte[]> values = written.get(e.getKey());
                        if (values == null || values.stream().noneMatch(v -> Arrays.equals(v, e.getValue()))) {
                            problem = "forEach yielded " + e.getKey() + " = " + StoreState.describe(e.getValue())
                                    + ", never written to it";
                            break;
                        }
                    }
                } catch (BitCaskCorruptionException detected) {
                    // reported, not returned
                }
            }
        } catch (RuntimeException e) {
            problem = "reading threw " + e;
        } finally {
            try {
                db.close();
            } catch (RuntimeException e) {
                problem = problem != null ? problem : "close threw " + e;
            }
        }
        return problem;
    }

    private static String read(BitCask db, String key, List<byte[]> values) {
        byte[] got;
        try {
            got = db.get(key.getBytes(StandardCharsets.UTF_8));
        } catch (BitCaskCorruptionException detected) {
            return null;
        } catch (RuntimeException e) {
            return "get(" + key + ") threw " + e;
        }
        if (got != null && values.stream().noneMatch(v -> Arrays.equals(v, got))) {
            return "get(" + key + ") returned " + StoreState.describe(got) + ", never written to it";
        }
        return null;
    }
}
