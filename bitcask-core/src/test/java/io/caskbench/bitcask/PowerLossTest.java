package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.PowerCuts;
import io.caskbench.bitcask.testing.PowerLossBackend;
import io.caskbench.bitcask.testing.Step;
import io.caskbench.bitcask.testing.StoreState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;

import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Power loss at a random moment, modelled by {@link PowerLossBackend}: a seeded single-threaded
 * workload (puts of 0-300 byte values, deletes, batches, occasional sync and merge, 64 KiB
 * segments so that rollovers and merges happen) runs until the power is cut at a random call;
 * the surviving image is then reopened without the wrapper. Under every sync policy the recovered
 * contents must equal the contents after some prefix of the operations, and that prefix must hold
 * every operation acknowledged before the last acknowledged {@code sync()} or {@code merge()}, a
 * barrier whatever it selects (under
 * {@link SyncPolicy#ALWAYS}: every acknowledged operation). The store must also make every file
 * operation through its backend, or the model cannot tell what survives.
 *
 * <p>{@code -Dcaskbench.powerLossCycles=N} runs N cycles per backend and policy (default 20);
 * {@code -Dcaskbench.seed} fixes the first seed. A failure names the seed of its cycle.
 */
class PowerLossTest {

    private static final int CYCLES = Integer.getInteger("caskbench.powerLossCycles", 20);
    private static final int SEGMENT_SIZE = 64 << 10;

    @TempDir
    Path tmp;

    static Stream<Arguments> combinations() {
        return Backends.available().stream().flatMap(b -> Stream.of(SyncPolicy.values()).map(p -> Arguments.of(b, p)));
    }

    private static BitCaskOptions options(Backend backend, SyncPolicy policy, PowerLossBackend power) {
        // A selective merge reads one segment at most: a partial merge, which leaves older segments behind.
        // No automatic merge: the merges and forces are the seeded workload's own, so a seed replays one run.
        BitCaskOptions.Builder b = BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT_SIZE).syncPolicy(policy)
                .syncInterval(Duration.ofMillis(2)).mergeMaxInputBytes(SEGMENT_SIZE).mergeSmallSegmentBytes(0)
                .autoMerge(false);
        if (power != null) {
            b.segmentBackend(power);
        }
        return b.build();
    }

    /** A workload of 1500 to 3000 operations on up to 250 keys. */
    static List<Step> workload(Random rnd) {
        int keys = 20 + rnd.nextInt(230);
        int n = 1500 + rnd.nextInt(1500);
        List<Step> ops = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int dice = rnd.nextInt(10_000);
            String key = "k" + rnd.nextInt(keys);
            if (dice < 5500) {
                ops.add(Step.put(key, value(rnd)));
            } else if (dice < 7000) {
                ops.add(Step.delete(key));
            } else if (dice < 8000) {
                Set<String> batchKeys = new LinkedHashSet<>();
                int size = 2 + rnd.nextInt(5);
                while (batchKeys.size() < size) {
                    batchKeys.add("k" + rnd.nextInt(keys));
                }
                List<Step> batch = new ArrayList<>();
                for (String k : batchKeys) {
                    batch.add(rnd.nextInt(4) == 0 ? Step.delete(k) : Step.put(k, value(rnd)));
                }
                ops.add(Step.batch(batch));
            } else if (dice < 8400) {
                ops.add(Step.sync());
            } else if (dice < 8415) {
                ops.add(rnd.nextBoolean() ? Step.merge() : Step.mergeAll());
            } else {
                ops.add(Step.get(key));
            }
        }
        return ops;
    }

    private static byte[] value(Random rnd) {
        return Bytes.random(rnd, rnd.nextInt(301));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("combinations")
    void theRecoveredStoreIsAPrefixOfTheOperations(Backend backend, SyncPolicy policy) throws Exception {
        PowerCuts.run(tmp, CYCLES, "power cuts broke the contract (" + backend + " " + policy + ")",
                (seed, dir) -> cycle(backend, policy, seed, dir));
    }

    /** One cycle; returns what went wrong, or null. */
    private static String cycle(Backend backend, SyncPolicy policy, long seed, Path base) {
        Random rnd = new Random(seed);
        List<Step> ops = workload(rnd);
        // A third of the cuts land in a merge (which makes hundreds of calls), the rest anywhere.
        List<Integer> merges = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).isMerge()) {
                merges.add(i);
            }
        }
        boolean inMerge = !merges.isEmpty() && rnd.nextInt(3) == 0;
        int cutOp = inMerge ? merges.get(rnd.nextInt(merges.size())) : rnd.nextInt(ops.size());
        int cutCall = 1 + rnd.nextInt(inMerge ? 600 : 8);
        String where = "-Dcaskbench.seed=" + seed + " -Dcaskbench.powerLossCycles=1 (cut at op " + cutOp + " " + ops.get(cutOp).kind() + ", call " + cutCall + ")";

        Path dir = base.resolve("db");
        PowerLossBackend power = new PowerLossBackend(backend.create(), dir);
        List<String> problems = new ArrayList<>();
        TreeMap<String, byte[]> live = new TreeMap<>();
        int attempted = ops.size(); // ops before this index were acknowledged
        int mustHave = 0;           // a prefix no shorter than this must survive
        BitCask db = BitCask.open(dir, options(backend, policy, power));
        try {
            for (int i = 0; i < ops.size(); i++) {
                if (i == cutOp) {
                    power.cutAtCall(cutCall);
                }
                Step s = ops.get(i);
                byte[] got;
                try {
                    got = s.runOn(db, null);
                } catch (BitCaskException e) {
                    if (!power.isCut()) {
                        problems.add("op " + i + " " + s + " threw with the power on: " + e);
                    }
                    attempted = i;
                    break;
                }
                s.applyTo(live);
                if (s.kind() == Step.Kind.GET && !Arrays.equals(got, live.get(s.key()))) {
                    problems.add("op " + i + " " + s + " read " + StoreState.describe(got) + ", not "
                            + StoreState.describe(live.get(s.key())));
                }
                if (s.kind() == Step.Kind.SYNC || s.isMerge() || policy == SyncPolicy.ALWAYS) {
                    mustHave = i + 1;
                }
            }
        } catch (RuntimeException e) {
            problems.add("an operation threw " + e + " instead of BitCaskException");
        } finally {
            power.cut();
            try {
                db.close();
            } catch (BitCaskException expected) {
                // the power is out: close may fail, but must release everything
            } catch (RuntimeException e) {
                problems.add("close after the cut threw " + e + " instead of BitCaskException");
            }
        }
        int mayHave = Math.min(ops.size(), attempted + 1);
        Path image = base.resolve("image");
        power.materialize(image);
        try (BitCask recovered = BitCask.open(image, options(backend, policy, null))) {
            TreeMap<String, byte[]> state = StoreState.read(recovered);
            int prefix = matchingPrefix(ops, state, mustHave, mayHave);
            if (prefix < 0) {
                problems.add("the recovered contents are the contents after no prefix of " + mustHave + ".." + mayHave
                        + " operations; against " + mustHave + ":" + StoreState.diff(state, after(ops, mustHave))
                        + "; against " + mayHave + ":" + StoreState.diff(state, after(ops, mayHave)));
            }
            for (Map.Entry<String, byte[]> e : state.entrySet()) {
                if (!Arrays.equals(recovered.get(e.getKey()), e.getValue())) {
                    problems.add("get(" + e.getKey() + ") disagrees with forEach after recovery");
                }
            }
        } catch (RuntimeException e) {
            problems.add("opening the surviving image failed: " + e);
        }
        if (!power.divergenceAtCut().isEmpty() || !power.bypasses().isEmpty()) {
            problems.add("files changed behind the backend, so the model cannot say what survives: "
                    + power.divergenceAtCut() + " " + power.bypasses());
        }
        return problems.isEmpty() ? null : where + ": " + String.join("; ", problems);
    }

    /** The contents after the first {@code n} operations. */
    private static TreeMap<String, byte[]> after(List<Step> ops, int n) {
        TreeMap<String, byte[]> state = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            ops.get(i).applyTo(state);
        }
        return state;
    }

    /** The length of a prefix in [from, to] whose contents equal {@code state}, or -1. */
    private static int matchingPrefix(List<Step> ops, Map<String, byte[]> state, int from, int to) {
        TreeMap<String, byte[]> s = after(ops, from);
        for (int n = from; ; n++) {
            if (StoreState.same(s, state)) {
                return n;
            }
            if (n == to) {
                return -1;
            }
            ops.get(n).applyTo(s);
        }
    }

    /**
     * A check of the model with the store: after a clean close nothing may be lost, so the image
     * must hold every data file byte for byte (and any hint file it holds must be the real one),
     * and reopen to the final contents.
     */
    @EveryBackend
    void aCleanCloseLeavesAnImageEqualToTheStore(Backend backend) throws IOException {
        Path dir = tmp.resolve("db");
        PowerLossBackend power = new PowerLossBackend(backend.create(), dir);
        List<Step> ops = workload(new Random(11));
        try (BitCask db = BitCask.open(dir, options(backend, SyncPolicy.NONE, power))) {
            for (Step s : ops) {
                s.runOn(db, null);
            }
        }
        power.cut();
        Path image = tmp.resolve("image");
        power.materialize(image);
        Map<String, byte[]> real = PowerLossBackend.filesIn(dir);
        Map<String, byte[]> survived = PowerLossBackend.filesIn(image);
        for (Map.Entry<String, byte[]> e : real.entrySet()) {
            if (e.getKey().endsWith(".data")) {
                assertThat(survived).as("data files in the image").containsKey(e.getKey());
            }
            if (survived.containsKey(e.getKey())) {
                assertThat(survived.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
        assertThat(survived.keySet()).as("files in the image").isSubsetOf(real.keySet());
        try (BitCask recovered = BitCask.open(image, options(backend, SyncPolicy.NONE, null))) {
            TreeMap<String, byte[]> state = StoreState.read(recovered);
            TreeMap<String, byte[]> expected = after(ops, ops.size());
            assertThat(StoreState.same(state, expected)).as("contents after reopen:%s", StoreState.diff(state, expected)).isTrue();
        }
        assertThat(power.divergenceAtCut()).as("files changed behind the backend").isEmpty();
    }
}
