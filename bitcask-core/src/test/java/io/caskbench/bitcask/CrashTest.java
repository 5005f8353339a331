package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.ChildJvm;
import io.caskbench.bitcask.testing.CrashWorkload;
import io.caskbench.bitcask.testing.Seeds;
import io.caskbench.bitcask.testing.StoreState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The durability contract under {@code kill -9}: a child JVM writes and prints every operation the
 * store acknowledged; the test kills it with SIGKILL at a random moment, reopens the store and
 * checks that every acknowledged operation is there with its exact bytes, that the one operation in
 * flight is there entirely or not at all (batches included), and that no key holds bytes that were
 * never written. Modes: plain puts and deletes, atomic batches, and writes racing continuous merges.
 * Runs per backend: 10 by default, {@code -Dcaskbench.crashRuns=N} for more.
 */
class CrashTest {

    private static final int RUNS = Integer.getInteger("caskbench.crashRuns", 10);

    @TempDir
    Path tmp;

    static Stream<Arguments> runs() {
        long base = Seeds.base();
        SyncPolicy[] policies = SyncPolicy.values();
        return Stream.of("plain", "batch", "merge").flatMap(mode -> Backends.available().stream().flatMap(b ->
                IntStream.range(0, RUNS).mapToObj(i -> Arguments.of(mode, b, policies[i % policies.length], base + i * 7919L))));
    }

    @ParameterizedTest(name = "{0} {1} {2} seed={3}")
    @MethodSource("runs")
    void acknowledgedWritesSurviveSigkill(String mode, Backend backend, SyncPolicy policy, long seed) throws Exception {
        Path dir = tmp.resolve("db");
        Random timing = new Random(seed);
        Process child = ChildJvm.start(CrashWorkload.class, dir.toString(), backend.name(), policy.name(), mode, Long.toString(seed));
        long lastAck = -1;
        try (BufferedReader out = ChildJvm.stdout(child)) {
            String line = out.readLine();
            assertThat(line).as("child start").isEqualTo("READY");
            long[] ack = {-1};
            ChildJvm.killAfter(child, out, (20 + timing.nextInt(600)) * 1_000_000L, l -> {
                if (l.isEmpty()) {
                    return true;
                }
                try {
                    ack[0] = Long.parseLong(l);
                    return true;
                } catch (NumberFormatException torn) {
                    return false; // a half-printed line: that op is the one in flight
                }
            });
            lastAck = ack[0];
        } finally {
            child.destroyForcibly();
        }
        verify(dir, mode, backend, policy, seed, lastAck);
    }

    private static void verify(Path dir, String mode, Backend backend, SyncPolicy policy, long seed, long lastAck) {
        Map<Integer, byte[]> acked = new HashMap<>();
        Map<Integer, byte[]> withInFlight;
        Set<Integer> inFlightKeys = new HashSet<>();
        Random rnd = new Random(seed);
        for (long op = 0; op <= lastAck; op++) {
            CrashWorkload.op(rnd, op, mode, oracle(acked, null));
        }
        withInFlight = new HashMap<>(acked);
        CrashWorkload.op(rnd, lastAck + 1, mode, oracle(withInFlight, inFlightKeys));

        try (BitCask db = BitCask.open(dir, CrashWorkload.options(backend, policy))) {
            Map<Integer, byte[]> found = new HashMap<>();
            db.forEach((k, v) -> found.put(Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(1)), v));
            boolean matchesAcked = StoreState.same(found, acked);
            boolean matchesInFlight = StoreState.same(found, withInFlight);
            if (!matchesAcked && !matchesInFlight) {
                StringBuilder diff = new StringBuilder();
                for (int k = 0; k < CrashWorkload.KEYS; k++) {
                    byte[] f = found.get(k);
                    if (!Arrays.equals(f, acked.get(k)) && !Arrays.equals(f, withInFlight.get(k))) {
                        diff.append("\n  k").append(k).append(": found ").append(f == null ? "absent" : new String(f, StandardCharsets.UTF_8))
                                .append(", acknowledged ").append(acked.get(k) == null ? "absent" : "a value");
                        if (diff.length() > 2000) {
                            break;
                        }
                    }
                }
                fail("after SIGKILL at op " + lastAck + " (" + mode + ", " + backend + ", " + policy + ", -Dcaskbench.seed=" + seed
                        + ") the store matches neither the acknowledged state nor it plus the op in flight (keys " + inFlightKeys + "):" + diff);
            }
            for (Map.Entry<Integer, byte[]> e : found.entrySet()) {
                assertThat(db.get("k" + e.getKey())).isEqualTo(e.getValue());
            }
            assertThat(db.size()).isEqualTo(found.size());
        }
    }

    static CrashWorkload.Sink oracle(Map<Integer, byte[]> state, Set<Integer> touched) {
        return new CrashWorkload.Sink() {
            @Override
            public void put(int key, byte[] value) {
                state.put(key, value);
                note(key);
            }

            @Override
            public void delete(int key) {
                state.remove(key);
                note(key);
            }

            @Override
            public void batch(int[] keys, byte[][] values) {
                for (int i = 0; i < keys.length; i++) {
                    if (values[i] == null) {
                        state.remove(keys[i]);
                    } else {
                        state.put(keys[i], values[i]);
                    }
                    note(keys[i]);
                }
            }

            private void note(int key) {
                if (touched != null) {
                    touched.add(key);
                }
            }
        };
    }
}
