package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Seeds;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers that copy their records at once, each on keys of its own, with puts of many sizes,
 * deletes and batches, through rollovers and (in half the runs) merges back to back: after they
 * end, and again after a reopen, every key holds what its writer's own sequence says. Seeded; the
 * seed is printed on failure ({@code -Dcaskbench.seed} replays the choices, not the timing).
 */
class ConcurrentWritersModelTest {

    private static final int WRITERS = 8;
    private static final int KEYS_PER_WRITER = 40;
    private static final int OPS = 1500;

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        long base = Seeds.base();
        return Backends.available().stream().flatMap(b -> Stream.of(SyncPolicy.NONE, SyncPolicy.ALWAYS)
                .flatMap(p -> IntStream.range(0, 2).mapToObj(i -> Arguments.of(b, p, i == 1, base + i))));
    }

    private static String key(int k) {
        return "k" + k;
    }

    @ParameterizedTest(name = "{0} {1} merges={2} seed={3}")
    @MethodSource("cases")
    void everyWritersKeysHoldItsLastWrite(Backend backend, SyncPolicy policy, boolean merges, long seed) throws Exception {
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).syncPolicy(policy).segmentSize(64 << 10)
                .maxValueSize(8 << 10).build();
        Path dir = tmp.resolve("db");
        Map<Integer, byte[]> model = new ConcurrentHashMap<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (BitCask db = BitCask.open(dir, o)) {
            AtomicBoolean done = new AtomicBoolean();
            Thread merger = new Thread(() -> {
                while (merges && !done.get()) {
                    try {
                        db.merge();
                        Thread.sleep(1); // pacing only: a merge per millisecond at most
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                        return;
                    }
                }
            });
            merger.start();
            Thread[] writers = new Thread[WRITERS];
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers[w] = new Thread(() -> {
                    try {
                        write(db, writer, new Random(seed * 31 + writer), model);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                writers[w].start();
            }
            for (Thread t : writers) {
                t.join();
            }
            done.set(true);
            merger.join();
            assertThat(failure.get()).as("seed %d", seed).isNull();
            check(db, model, seed, "before close");
        }
        try (BitCask db = BitCask.open(dir, o)) {
            check(db, model, seed, "after reopen");
        }
    }

    private static void write(BitCask db, int writer, Random rnd, Map<Integer, byte[]> model) {
        for (int op = 0; op < OPS; op++) {
            int dice = rnd.nextInt(100);
            if (dice < 10) {
                WriteBatch b = new WriteBatch();
                Map<Integer, byte[]> changes = new HashMap<>();
                for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
                    int k = writer + WRITERS * rnd.nextInt(KEYS_PER_WRITER);
                    if (rnd.nextInt(4) == 0) {
                        b.delete(key(k));
                        changes.put(k, null);
                    } else {
                        byte[] v = value(writer, op * 8 + i, rnd);
                        b.put(key(k), v);
                        changes.put(k, v);
                    }
                }
                db.write(b);
                changes.forEach((k, v) -> {
                    if (v == null) {
                        model.remove(k);
                    } else {
                        model.put(k, v);
                    }
                });
            } else {
                int k = writer + WRITERS * rnd.nextInt(KEYS_PER_WRITER);
                if (dice < 20) {
                    db.delete(key(k));
                    model.remove(k);
                } else {
                    byte[] v = value(writer, op * 8, rnd);
                    db.put(key(k), v);
                    model.put(k, v);
                }
            }
        }
    }

    private static byte[] value(int writer, int op, Random rnd) {
        byte[] tag = ("w" + writer + "op" + op + ";").getBytes(StandardCharsets.UTF_8);
        byte[] v = new byte[rnd.nextInt(8) == 0 ? 1024 + rnd.nextInt(6000) : rnd.nextInt(200) + tag.length];
        for (int i = 0; i < v.length; i += tag.length) {
            System.arraycopy(tag, 0, v, i, Math.min(tag.length, v.length - i));
        }
        return v;
    }

    private static void check(BitCask db, Map<Integer, byte[]> model, long seed, String when) {
        for (int k = 0; k < WRITERS * KEYS_PER_WRITER; k++) {
            assertThat(db.get(key(k))).as("seed %d %s: k%d", seed, when, k).isEqualTo(model.get(k));
        }
        assertThat(db.size()).as("seed %d %s", seed, when).isEqualTo(model.size());
        List<String> unknown = new java.util.ArrayList<>();
        db.forEach((k, v) -> {
            int n = Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(1));
            if (n < 0 || n >= WRITERS * KEYS_PER_WRITER) {
                unknown.add(new String(k, StandardCharsets.UTF_8));
            }
        });
        assertThat(unknown).as("seed %d %s", seed, when).isEmpty();
    }
}
