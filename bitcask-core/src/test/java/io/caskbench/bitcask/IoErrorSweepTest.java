package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.Bytes;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.FaultyBackend.Kind;
import io.caskbench.bitcask.testing.ScratchDir;
import io.caskbench.bitcask.testing.Seeds;
import io.caskbench.bitcask.testing.Step;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;

import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Fails every I/O call of a scripted workload in turn. A clean run of the script (puts, deletes,
 * a TTL put, a batch, rollovers of 64 KiB segments, a close and reopen that reads hint files, a
 * partial merge, a backup and a checkpoint, a second batch, a full merge after it, syncs, reads, close) counts its calls N; then for each k in 1..N the script
 * runs again with the k-th call throwing, and the run is checked against the failure contract:
 * <ul>
 *   <li>the step that hit the fault throws {@link BitCaskException} (a failure to write, open,
 *       truncate, rename, delete, copy or force must not be swallowed; a failed hint write must
 *       only be logged), and no step ever throws another type;</li>
 *   <li>afterwards the store goes on, or, after a failed force, refuses every write with a message
 *       that says to reopen it, while reads go on (under ALWAYS, the write whose force failed is
 *       not read back);</li>
 *   <li>close releases every handle and the lock even when it throws;</li>
 *   <li>reopened without faults, the store holds exactly one of the possible contents: every
 *       acknowledged write, and each write that threw either whole or not at all; a successful
 *       backup or checkpoint holds the contents of its moment, also after the reopened store took a
 *       write (a file a checkpoint hard-linked must never be written again).</li>
 * </ul>
 * Only the calls of the test's thread are counted and failed, so the numbering repeats from run
 * to run; {@link BackgroundSyncFailureTest} fails the background sync of INTERVAL. A failing call writes half its bytes first, as a disk that fills up mid-write does.
 * {@code -Dcaskbench.sweepRepeat=N} sweeps N scripts per backend and policy (different value
 * sizes); {@code -Dcaskbench.seed} fixes the first script, and {@code -Dcaskbench.sweepK=k} fails
 * only the k-th call, to rerun one failure.
 */
class IoErrorSweepTest {

    private static final int REPEAT = Integer.getInteger("caskbench.sweepRepeat", 1);
    /** When set, only this call is failed: to rerun one failure of a sweep with its seed. */
    private static final long ONLY_K = Long.getLong("caskbench.sweepK", 0);

    @TempDir
    Path tmp;

    static Stream<Arguments> variants() {
        long base = Seeds.base();
        return Backends.available().stream().flatMap(b -> IntStream.range(0, REPEAT).boxed().flatMap(r ->
                Stream.of(SyncPolicy.NONE, SyncPolicy.ALWAYS).map(p -> Arguments.of(b, p, base + r))));
    }

    /** The script: three sessions' worth of work in two sessions, about 150 KiB of values. */
    static List<Step> script(long seed) {
        Random rnd = new Random(seed);
        List<Step> s = new ArrayList<>();
        s.add(Step.open());
        for (int i = 0; i < 12; i++) {
            s.add(Step.put("k" + i, value(rnd)));
        }
        s.add(Step.putTtl("k12", value(rnd)));
        s.add(Step.delete("k3"));
        s.add(Step.batch(List.of(Step.put("k13", value(rnd)), Step.put("k14", value(rnd)), Step.delete("k5"),
                Step.put("k0", value(rnd)))));
        s.add(Step.sync());
        for (int i = 15; i < 20; i++) {
            s.add(Step.put("k" + i, value(rnd)));
        }
        for (int i = 0; i < 10; i++) {
            s.add(Step.put("k" + i, value(rnd)));
        }
        s.add(Step.get("k0"));
        s.add(Step.get("k3"));
        s.add(Step.get("k13"));
        s.add(Step.close());
        s.add(Step.open());
        s.add(Step.get("k12"));
        s.add(Step.put("k20", value(rnd)));
        s.add(Step.delete("k4"));
        s.add(Step.merge());
        s.add(Step.get("k1"));
        s.add(Step.backup());
        s.add(Step.checkpoint());
        s.add(Step.put("k21", value(rnd)));
        s.add(Step.batch(List.of(Step.put("k22", value(rnd)), Step.delete("k1"), Step.put("k6", value(rnd)))));
        // After the batch: a merge writes what readers see, so half a batch seen would become durable.
        s.add(Step.mergeAll());
        s.add(Step.sync());
        s.add(Step.get("k22"));
        s.add(Step.close());
        return s;
    }

    private static byte[] value(Random rnd) {
        return Bytes.random(rnd, 3000 + rnd.nextInt(3000));
    }

    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("variants")
    void everyFailingCallKeepsTheContract(Backend backend, SyncPolicy policy, long seed) {
        List<Step> script = script(seed);
        List<SweepRun> failed = new ArrayList<>();
        long n;
        try (ScratchDir scratch = ScratchDir.create(tmp, "sweep")) {
            SweepRun clean = new SweepRun(backend, policy, seed, script, 0, scratch.path().resolve("clean"));
            clean.execute();
            assertThat(clean.violations).as("the script without faults (%s %s seed %d)", backend, policy, seed).isEmpty();
            n = clean.calls;
            for (long k = ONLY_K > 0 ? ONLY_K : 1; k <= (ONLY_K > 0 ? ONLY_K : n); k++) {
                SweepRun r = new SweepRun(backend, policy, seed, script, k, scratch.path().resolve("k" + k));
                r.execute();
                if (!r.violations.isEmpty()) {
                    failed.add(r);
                }
                ScratchDir.deleteTree(r.dir.getParent());
            }
        }
        if (!failed.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            sb.append(failed.size()).append(" of ").append(n).append(" failing calls broke the contract (").append(backend)
                    .append(' ').append(policy).append(", -Dcaskbench.seed=").append(seed).append("):");
            failed.stream().limit(60).forEach(r -> sb.append("\n  ").append(r.describe()));
            fail(sb.toString());
        }
    }

    /**
     * The store must make every file operation of the script through its backend; one it makes
     * behind the backend's back can neither be failed by the sweep nor modelled by a power loss.
     */
    @EveryBackend
    void theScriptReachesEveryKindOfFileOperationThroughTheBackend(Backend backend) {
        SweepRun clean = new SweepRun(backend, SyncPolicy.NONE, 1, script(1), 0, tmp.resolve("kinds"));
        clean.faulty.recordCalls(true);
        clean.execute();
        assertThat(clean.violations).as("the script without faults").isEmpty();
        Map<Kind, Long> counts = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            counts.put(kind, clean.faulty.count(kind));
        }
        Set<Kind> needed = EnumSet.of(Kind.OPEN_WRITABLE, Kind.OPEN_READ_ONLY, Kind.WRITE, Kind.READ,
                Kind.WRITE_FILE, Kind.RENAME, Kind.DELETE, Kind.FORCE_DIRECTORY);
        for (Kind kind : needed) {
            assertThat(counts.get(kind)).as("%s calls in the script, of %s", kind, counts).isPositive();
        }
        // Open reads hint files through a reader of the backend, a window at a time.
        Set<Kind> hintReads = EnumSet.noneOf(Kind.class);
        for (FaultyBackend.Call call : clean.faulty.calls()) {
            if (call.path() != null && call.path().toString().endsWith(".hint")) {
                hintReads.add(call.kind());
            }
        }
        assertThat(hintReads).as("calls on hint files").contains(Kind.OPEN_READ_ONLY, Kind.READ);
        assertThat(counts.get(Kind.FORCE) + counts.get(Kind.FORCE_FILE)).as("forces of segments, of %s", counts).isPositive();
        assertThat(counts.get(Kind.COPY_PREFIX)).as("backup copies, of %s", counts).isPositive();
        assertThat(counts.get(Kind.LINK_OR_COPY)).as("checkpoint links, of %s", counts).isPositive();
    }
}
