package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.ChildJvm;
import io.caskbench.bitcask.testing.Seeds;
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
 * {@code kill -9} of a child JVM in which many writer threads copy their records at once, so the
 * kill lands in the middle of copies and leaves holes (ranges reserved and never, or only partly,
 * written) in front of puts that returned. After a reopen every acknowledged operation of every
 * writer is there with its exact bytes, each writer's one operation in flight is there entirely or
 * not at all, and no key holds bytes nobody wrote. Runs per backend and policy:
 * {@code -Dcaskbench.crashRuns=N} for more.
 */
class WriterCrashTest {

    private static final int RUNS = Integer.getInteger("caskbench.crashRuns", 10) / 2;

    @TempDir
    Path tmp;

    static Stream<Arguments> runs() {
        long base = Seeds.base();
        SyncPolicy[] policies = SyncPolicy.values();
        return Backends.available().stream().flatMap(b -> IntStream.range(0, Math.max(RUNS, policies.length))
                .mapToObj(i -> Arguments.of(b, policies[i % policies.length], base + i * 7919L)));
    }

    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("runs")
    void everyWritersAcknowledgedPutsSurviveSigkill(Backend backend, SyncPolicy policy, long seed) throws Exception {
        Path dir = tmp.resolve("db");
        Random timing = new Random(seed);
        long[] lastAck = new long[WriterCrashWorkload.WRITERS];
        Arrays.fill(lastAck, -1);
        Process child = ChildJvm.start(WriterCrashWorkload.class, dir.toString(), backend.name(), policy.name(), Long.toString(seed));
        try (BufferedReader out = ChildJvm.stdout(child)) {
            String line = out.readLine();
            assertThat(line).as("child start").isEqualTo("READY");
            ChildJvm.killAfter(child, out, (50 + timing.nextInt(700)) * 1_000_000L, l -> ack(l, lastAck));
        } finally {
            child.destroyForcibly();
        }
        verify(dir, backend, policy, seed, lastAck);
    }

    /** Notes an ack line; false for a half-printed one. Shared with {@link StallCrashTest}. */
    static boolean ack(String line, long[] lastAck) {
        String[] parts = line.split(" ");
        if (parts.length != 2) {
            return line.isEmpty();
        }
        try {
            int writer = Integer.parseInt(parts[0]);
            long op = Long.parseLong(parts[1]);
            lastAck[writer] = Math.max(lastAck[writer], op);
            return true;
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException torn) {
            return false;
        }
    }

    /**
     * Reopens the store in {@code dir} and checks it against each writer's sequence up to its last
     * acknowledged op, that op's successor being in flight. Shared with {@link StallCrashTest}.
     */
    static void verify(Path dir, Backend backend, SyncPolicy policy, long seed, long[] lastAck) {
        Map<Integer, byte[]> acked = new HashMap<>();
        Map<Integer, byte[]> inFlight = new HashMap<>(); // key of a writer's op in flight -> its value, null for a delete
        for (int w = 0; w < WriterCrashWorkload.WRITERS; w++) {
            Random rnd = WriterCrashWorkload.sequence(seed, w);
            for (long op = 0; op <= lastAck[w]; op++) {
                WriterCrashWorkload.op(rnd, w, op, CrashTest.oracle(acked, null));
            }
            Map<Integer, byte[]> next = new HashMap<>();
            Set<Integer> touched = new HashSet<>();
            Map<Integer, byte[]> after = new HashMap<>(acked);
            WriterCrashWorkload.op(rnd, w, lastAck[w] + 1, CrashTest.oracle(after, touched));
            touched.forEach(k -> next.put(k, after.get(k)));
            inFlight.putAll(next);
        }
        String run = backend + " " + policy + " -Dcaskbench.seed=" + seed + ", acks " + Arrays.toString(lastAck);
        try (BitCask db = BitCask.open(dir, WriterCrashWorkload.options(backend, policy))) {
            Map<Integer, byte[]> found = new HashMap<>();
            db.forEach((k, v) -> found.put(Integer.parseInt(new String(k, StandardCharsets.UTF_8).substring(1)), v));
            int keys = WriterCrashWorkload.WRITERS * WriterCrashWorkload.KEYS_PER_WRITER;
            for (int k = 0; k < keys; k++) {
                byte[] f = found.get(k);
                boolean ok = Arrays.equals(f, acked.get(k)) || (inFlight.containsKey(k) && Arrays.equals(f, inFlight.get(k)));
                if (!ok) {
                    fail("after SIGKILL (" + run + ") k" + k + " holds "
                            + (f == null ? "nothing" : new String(f, 0, Math.min(f.length, 40), StandardCharsets.UTF_8))
                            + " but was acknowledged as "
                            + (acked.get(k) == null ? "absent" : new String(acked.get(k), 0, Math.min(acked.get(k).length, 40), StandardCharsets.UTF_8)));
                }
            }
            assertThat(found.keySet()).as(run).allMatch(k -> k >= 0 && k < keys);
            for (Map.Entry<Integer, byte[]> e : found.entrySet()) {
                assertThat(db.get("k" + e.getKey())).as(run).isEqualTo(e.getValue());
            }
            db.put("after", "the crash".getBytes(StandardCharsets.UTF_8));
        }
        try (BitCask db = BitCask.open(dir, WriterCrashWorkload.options(backend, policy))) {
            assertThat(db.get("after")).as(run).isEqualTo("the crash".getBytes(StandardCharsets.UTF_8));
        }
    }

}
