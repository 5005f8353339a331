package io.caskbench.bitcask;

import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.testing.EveryBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store at its limits: options, sizes, keys, TTLs and segment ids. */
class LimitsTest {

    @TempDir
    Path dir;

    private static byte[] filled(int size, int seed) {
        byte[] v = new byte[size];
        Arrays.fill(v, (byte) seed);
        v[0] = (byte) (seed + 1);
        return v;
    }

    @EveryBackend
    void reopeningWithSmallerLimitsKeepsEveryRecordTheFormatCanHold(Backend backend) {
        byte[] big = filled(200 << 10, 7);
        byte[] longKey = b("k".repeat(300));
        BitCaskOptions wide = BitCaskOptions.builder().backend(backend).segmentSize(1 << 20).build();
        try (BitCask db = BitCask.open(dir, wide)) {
            db.put("big", big);
            db.put(longKey, b("long key"));
            db.put("churn", b("1"));
            db.put("churn", b("2"));
        }
        // A smaller segment also lowers the default value limit below the stored value.
        BitCaskOptions narrow = BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).maxKeySize(100).build();
        try (BitCask db = BitCask.open(dir, narrow)) {
            assertThat(db.get("big")).isEqualTo(big);
            assertThat(db.get(longKey)).isEqualTo(b("long key"));
            db.put("after", b("x"));
            db.merge();
            assertThat(db.get("big")).isEqualTo(big);
            assertThat(db.get(longKey)).isEqualTo(b("long key"));
        }
        try (BitCask db = BitCask.open(dir, narrow)) {
            assertThat(db.get("big")).isEqualTo(big);
            assertThat(db.get(longKey)).isEqualTo(b("long key"));
            assertThat(db.get("churn")).isEqualTo(b("2"));
            assertThat(db.get("after")).isEqualTo(b("x"));
        }
    }

    @Test
    void optionsTheFormatCannotHoldAreRefused() {
        assertThatThrownBy(() -> BitCaskOptions.builder().maxValueSize(Integer.MAX_VALUE).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCaskOptions.builder().segmentSize(Integer.MAX_VALUE).maxValueSize(Integer.MAX_VALUE - 10).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BitCaskOptions.builder().expectedKeys(KeyDir.MAX_KEYS + 1))
                .isInstanceOf(IllegalArgumentException.class);
        BitCaskOptions.builder().expectedKeys(1_000_000).build();
    }

    @EveryBackend
    void farFutureExpiriesNeverExpireEarly(Backend backend) {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(1 << 20).build();
        List<Duration> ttls = List.of(Duration.ofMillis(Long.MAX_VALUE), ChronoUnit.FOREVER.getDuration(),
                Duration.ofSeconds(Long.MAX_VALUE / 1000));
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < ttls.size(); i++) {
                db.put("single" + i, b("v" + i), ttls.get(i));
                db.write(new WriteBatch().put(b("batched" + i), b("w" + i), ttls.get(i)));
            }
            db.put("dead", b("1"));
            db.put("dead", b("2"));
            db.merge();
            for (int i = 0; i < ttls.size(); i++) {
                assertThat(db.get("single" + i)).isEqualTo(b("v" + i));
                assertThat(db.get("batched" + i)).isEqualTo(b("w" + i));
            }
        }
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < ttls.size(); i++) {
                assertThat(db.get("single" + i)).isEqualTo(b("v" + i));
                assertThat(db.get("batched" + i)).isEqualTo(b("w" + i));
            }
        }
    }

    /** Renames the one data file of a closed store to {@code id}, as a store that has lived long would have it. */
    private void renumber(long id) throws Exception {
        Files.deleteIfExists(dir.resolve("000000001.hint"));
        Files.move(dir.resolve("000000001.data"), dir.resolve(String.format("%09d.data", id)));
    }

    static Stream<Long> highIds() {
        return Stream.of((1L << 22) - 3, (1L << 24) - 3, 999_999_990L);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("highIds")
    void segmentIdsDoNotRunOut(long startId) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("seed", b("0"));
        }
        renumber(startId);
        byte[] value = filled(20 << 10, 3);
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get("seed")).isEqualTo(b("0"));
            for (int round = 0; round < 6; round++) {
                for (int k = 0; k < 8; k++) {
                    db.put("k" + k, value); // several rollovers per round
                }
                db.merge();
            }
            assertThat(db.get("seed")).isEqualTo(b("0"));
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get("seed")).isEqualTo(b("0"));
            for (int k = 0; k < 8; k++) {
                assertThat(db.get("k" + k)).isEqualTo(value);
            }
        }
    }
}
