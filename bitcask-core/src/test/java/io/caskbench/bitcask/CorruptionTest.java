package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.DamagedStore;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Random damage to data and hint files: several flipped bytes and truncations at once. Open must
 * recover, and {@code get} must return only bytes that were written to that key, null, or throw
 * {@link BitCaskCorruptionException}; never anything else. {@link ExhaustiveCorruptionTest} damages
 * every byte of a smaller store, one damage at a time.
 */
class CorruptionTest {

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        long base = Seeds.base();
        return Backends.available().stream().flatMap(b -> IntStream.range(0, 30).mapToObj(i -> Arguments.of(b, base + i)));
    }

    private static byte[] value(int key, int version) {
        return ("v" + version + "-of-" + key + "-" + "x".repeat((key * 7 + version) % 120)).getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0} seed={1}")
    @MethodSource("cases")
    void damagedFilesNeverYieldWrongBytes(Backend backend, long seed) throws IOException {
        Random rnd = new Random(seed);
        Path dir = tmp.resolve("db");
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).maxValueSize(1024).build();
        int keys = 800;
        List<Set<String>> written = new ArrayList<>();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int k = 0; k < keys; k++) {
                written.add(new HashSet<>());
            }
            for (int version = 0; version < 3; version++) {
                for (int k = 0; k < keys; k++) {
                    if (rnd.nextInt(4) == 0) {
                        db.delete("k" + k);
                    } else {
                        db.put("k" + k, value(k, version));
                        written.get(k).add(new String(value(k, version), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        DamagedStore.damageAtRandom(dir, rnd);
        BitCask db;
        try {
            db = BitCask.open(dir, o);
        } catch (BitCaskException e) {
            throw new AssertionError("seed " + seed + ": a damaged file of the current format stopped open", e);
        }
        try (db) {
            for (int k = 0; k < keys; k++) {
                byte[] got;
                try {
                    got = db.get("k" + k);
                } catch (BitCaskCorruptionException detected) {
                    continue;
                }
                if (got != null && !written.get(k).contains(new String(got, StandardCharsets.UTF_8))) {
                    fail("seed " + seed + ": k" + k + " returned bytes never written to it: " + new String(got, StandardCharsets.UTF_8));
                }
            }
            try {
                db.forEach((k, v) -> {
                    int key = Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(1));
                    assertThat(written.get(key)).as("seed %d forEach k%d", seed, key).contains(new String(v, StandardCharsets.UTF_8));
                });
            } catch (BitCaskCorruptionException detected) {
                // forEach may meet a record that fails its CRC: reported, not returned
            }
            db.put("after", "damage".getBytes(StandardCharsets.UTF_8));
            assertThat(db.get("after")).isEqualTo("damage".getBytes(StandardCharsets.UTF_8));
        }
    }
}
