package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.MutableClock;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random operations against a {@link HashMap} oracle: put, get, delete, containsKey, TTL
 * puts on a test clock, atomic batches, merge and reopen, over several segment sizes. A failure
 * names its seed; rerun it with {@code -Dcaskbench.seed=<seed>}.
 */
class ModelTest {

    private static final int OPS = Integer.getInteger("caskbench.modelOps", 100_000);

    @TempDir
    Path dir;

    record Entry(byte[] value, long expiresAt) {
        boolean liveAt(long now) {
            return expiresAt == 0 || expiresAt > now;
        }
    }

    static Stream<Arguments> cases() {
        long base = Seeds.base();
        return Stream.of(1L << 20, 64L << 20, 1L << 30)
                .flatMap(seg -> Backends.available().stream().map(b -> Arguments.of(b, seg, base ^ seg ^ b.ordinal())));
    }

    @ParameterizedTest(name = "{0} segmentSize={1} seed={2}")
    @MethodSource("cases")
    void storeMatchesTheOracle(Backend backend, long segmentSize, long seed) {
        try {
            run(backend, segmentSize, seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("model test failed with -Dcaskbench.seed=" + seed + " (" + backend + ", segmentSize="
                    + segmentSize + "): " + e, e);
        }
    }

    private void run(Backend backend, long segmentSize, long seed) {
        Random rnd = new Random(seed);
        MutableClock clock = new MutableClock(1_700_000_000_000L);
        BitCaskOptions options = BitCaskOptions.builder().backend(backend).segmentSize(segmentSize)
                .maxValueSize(4096).clock(clock).build();
        Map<String, Entry> oracle = new HashMap<>();
        int keySpace = 1 + rnd.nextInt(3000);
        BitCask db = BitCask.open(dir, options);
        try {
            for (int op = 0; op < OPS; op++) {
                String key = "k" + rnd.nextInt(keySpace);
                int dice = rnd.nextInt(1000);
                long now = clock.millis();
                if (dice < 400) {
                    byte[] v = value(rnd);
                    db.put(key, v);
                    oracle.put(key, new Entry(v, 0));
                } else if (dice < 650) {
                    Entry e = oracle.get(key);
                    byte[] want = e != null && e.liveAt(now) ? e.value : null;
                    assertThat(db.get(key)).as("get %s at op %d", key, op).isEqualTo(want);
                } else if (dice < 750) {
                    Entry e = oracle.remove(key);
                    assertThat(db.delete(key)).as("delete %s at op %d", key, op).isEqualTo(e != null && e.liveAt(now));
                } else if (dice < 800) {
                    Entry e = oracle.get(key);
                    assertThat(db.containsKey(key)).as("containsKey %s at op %d", key, op).isEqualTo(e != null && e.liveAt(now));
                } else if (dice < 850) {
                    byte[] v = value(rnd);
                    long ttl = 1 + rnd.nextInt(5_000);
                    db.put(key, v, Duration.ofMillis(ttl));
                    oracle.put(key, new Entry(v, now + ttl));
                } else if (dice < 870) {
                    clock.advance(rnd.nextInt(3_000));
                } else if (dice < 920) {
                    WriteBatch batch = new WriteBatch();
                    int n = 1 + rnd.nextInt(8);
                    Map<String, Entry> staged = new HashMap<>();
                    for (int i = 0; i < n; i++) {
                        String k = "k" + rnd.nextInt(keySpace);
                        if (rnd.nextInt(4) == 0) {
                            batch.delete(k);
                            staged.put(k, null);
                        } else {
                            byte[] v = value(rnd);
                            batch.put(k, v);
                            staged.put(k, new Entry(v, 0));
                        }
                    }
                    db.write(batch);
                    staged.forEach((k, e) -> {
                        if (e == null) {
                            oracle.remove(k);
                        } else {
                            oracle.put(k, e);
                        }
                    });
                } else if (dice < 921) {
                    db.close();
                    db = BitCask.open(dir, options);
                } else if (dice < 922) {
                    long before = db.stats().deadBytes();
                    MergeResult r = db.merge();
                    assertThat(db.stats().deadBytes()).as("dead bytes after merge").isLessThanOrEqualTo(before);
                    assertThat(r.bytesAfter()).isLessThanOrEqualTo(r.bytesBefore());
                } else if (dice < 923) {
                    assertSameContents(db, oracle, clock.millis(), op);
                }
            }
            assertSameContents(db, oracle, clock.millis(), OPS);
            db.close();
            db = BitCask.open(dir, options);
            assertSameContents(db, oracle, clock.millis(), OPS);
            db.merge();
            db.close();
            db = BitCask.open(dir, options);
            assertSameContents(db, oracle, clock.millis(), OPS);
        } finally {
            db.close();
        }
    }

    private static byte[] value(Random rnd) {
        return Bytes.random(rnd, rnd.nextInt(10) == 0 ? rnd.nextInt(4096) : rnd.nextInt(200));
    }

    private static void assertSameContents(BitCask db, Map<String, Entry> oracle, long now, int op) {
        Map<String, byte[]> want = new HashMap<>();
        oracle.forEach((k, e) -> {
            if (e.liveAt(now)) {
                want.put(k, e.value);
            }
        });
        Map<String, byte[]> seen = new HashMap<>();
        db.forEach((k, v) -> seen.put(new String(k, StandardCharsets.UTF_8), v));
        assertThat(seen.keySet()).as("keys at op %d", op).isEqualTo(want.keySet());
        for (Map.Entry<String, byte[]> e : want.entrySet()) {
            assertThat(Arrays.equals(seen.get(e.getKey()), e.getValue())).as("value of %s at op %d", e.getKey(), op).isTrue();
            assertThat(db.get(e.getKey())).isEqualTo(e.getValue());
        }
    }
}
