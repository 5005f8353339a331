package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.FaultyBackend.Call;
import io.caskbench.bitcask.testing.FaultyBackend.Kind;
import io.caskbench.bitcask.testing.PossibleWorlds;
import io.caskbench.bitcask.testing.ScratchDir;
import io.caskbench.bitcask.testing.Step;
import io.caskbench.bitcask.testing.StoreState;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Fails every I/O call of a scripted workload in turn. A clean run of the script (puts, deletes,
 * a TTL put, a batch, rollovers of 64 KiB segments, a close and reopen that reads hint files, a
 * merge, a backup, syncs, reads, close) counts its calls N; then for each k in 1..N the script
 * runs again with the k-th call throwing, and the run is checked against the failure contract:
 * <ul>
 *   <li>the step that hit the fault throws {@link BitCaskException} (a failure to write, open,
 *       truncate, rename, delete, copy or force must not be swallowed; a failed hint write must
 *       only be logged), and no step ever throws another type;</li>
 *   <li>afterwards the store goes on, or, after a failed force, refuses every write with a message
 *       that says to reopen it, while reads go on;</li>
 *   <li>close releases every handle and the lock even when it throws;</li>
 *   <li>reopened without faults, the store holds exactly one of the possible contents: every
 *       acknowledged write, and each write that threw either whole or not at all; a successful
 *       backup holds the contents of its moment, also after the reopened store took a write (a
 *       file a backup hard-linked must never be written again).</li>
 * </ul>
 * Only the calls of the test's thread are counted and failed, so the numbering repeats from run
 * to run. A failing call writes half its bytes first, as a disk that fills up mid-write does.
 * {@code -Dcaskbench.sweepRepeat=N} sweeps N scripts per backend and policy (different value
 * sizes); {@code -Dcaskbench.seed} fixes the first script, and {@code -Dcaskbench.sweepK=k} fails
 * only the k-th call, to rerun one failure.
 */
class IoErrorSweepTest {

    private static final int REPEAT = Integer.getInteger("caskbench.sweepRepeat", 1);
    /** When set, only this call is failed: to rerun one failure of a sweep with its seed. */
    private static final long ONLY_K = Long.getLong("caskbench.sweepK", 0);
    private static final int SEGMENT_SIZE = 64 << 10;

    @TempDir
    Path tmp;

    static Stream<Arguments> variants() {
        long base = Long.getLong("caskbench.seed", System.nanoTime());
        return Stream.of(Backend.values()).flatMap(b -> IntStream.range(0, REPEAT).boxed().flatMap(r ->
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
        s.add(Step.put("k21", value(rnd)));
        s.add(Step.batch(List.of(Step.put("k22", value(rnd)), Step.delete("k1"), Step.put("k6", value(rnd)))));
        s.add(Step.sync());
        s.add(Step.get("k22"));
        s.add(Step.close());
        return s;
    }

    private static byte[] value(Random rnd) {
        byte[] v = new byte[3000 + rnd.nextInt(3000)];
        rnd.nextBytes(v);
        return v;
    }

    @ParameterizedTest(name = "{0} {1} seed={2}")
    @MethodSource("variants")
    void everyFailingCallKeepsTheContract(Backend backend, SyncPolicy policy, long seed) {
        List<Step> script = script(seed);
        List<Run> failed = new ArrayList<>();
        long n;
        try (ScratchDir scratch = ScratchDir.create(tmp, "sweep")) {
            Run clean = new Run(backend, policy, seed, script, 0, scratch.path().resolve("clean"));
            clean.execute();
            assertThat(clean.violations).as("the script without faults (%s %s seed %d)", backend, policy, seed).isEmpty();
            n = clean.calls;
            for (long k = ONLY_K > 0 ? ONLY_K : 1; k <= (ONLY_K > 0 ? ONLY_K : n); k++) {
                Run r = new Run(backend, policy, seed, script, k, scratch.path().resolve("k" + k));
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
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theScriptReachesEveryKindOfFileOperationThroughTheBackend(Backend backend) {
        Run clean = new Run(backend, SyncPolicy.NONE, 1, script(1), 0, tmp.resolve("kinds"));
        clean.execute();
        assertThat(clean.violations).as("the script without faults").isEmpty();
        Map<Kind, Long> counts = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            counts.put(kind, clean.faulty.count(kind));
        }
        Set<Kind> needed = EnumSet.of(Kind.OPEN_WRITABLE, Kind.OPEN_READ_ONLY, Kind.WRITE, Kind.READ, Kind.FORCE,
                Kind.TRUNCATE, Kind.READ_FILE, Kind.WRITE_FILE, Kind.RENAME, Kind.DELETE, Kind.FORCE_DIRECTORY);
        for (Kind kind : needed) {
            assertThat(counts.get(kind)).as("%s calls in the script, of %s", kind, counts).isPositive();
        }
        assertThat(counts.get(Kind.LINK_OR_COPY) + counts.get(Kind.COPY_PREFIX)).as("backup copies, of %s", counts).isPositive();
    }

    /**
     * INTERVAL's background sync has no caller to throw to: its failed force is only logged, and
     * from then on the store refuses writes until it is reopened, while reads go on. The test
     * waits for events (the failed force, the first refusal), with generous bounds, not for time.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFailedBackgroundSyncMakesTheStoreRefuseWrites(Backend backend) throws InterruptedException {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        faulty.skipRealForces = true;
        Path dir = tmp.resolve("interval");
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).segmentSize(SEGMENT_SIZE)
                .syncPolicy(SyncPolicy.INTERVAL).syncInterval(Duration.ofMillis(5)).build();
        byte[] one = "1".getBytes(StandardCharsets.UTF_8);
        List<String> acked = new ArrayList<>(List.of("a"));
        BitCask db = BitCask.open(dir, o);
        try {
            db.put("a", one);
            faulty.failCall(1, EnumSet.of(Kind.FORCE, Kind.FORCE_FILE, Kind.FORCE_DIRECTORY));
            // Puts give the background sync something to force; a pause after each keeps the
            // store small if the engine never refuses. Each event gets a generous bound: 30 s
            // for the failed background force, then 5 s for the first refusal.
            long deadline = System.nanoTime() + 30_000_000_000L;
            RuntimeException refusal = null;
            for (int i = 0; refusal == null && System.nanoTime() < deadline; i++) {
                try {
                    db.put("w" + i, one);
                    acked.add("w" + i);
                } catch (RuntimeException e) {
                    refusal = e;
                }
                if (faulty.fired() != null) {
                    deadline = Math.min(deadline, System.nanoTime() + 5_000_000_000L);
                }
                Thread.sleep(1);
            }
            assertThat(faulty.fired()).as("a background force was failed").isNotNull();
            assertThat(faulty.fired().thread()).isNotEqualTo(Thread.currentThread().getName());
            assertThat(refusal).as("a write after the failed background sync").isInstanceOf(BitCaskException.class);
            assertThat(refusal.getMessage()).containsIgnoringCase("reopen");
            assertThatThrownBy(() -> db.put("later", one)).as("every later write").isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.delete("a")).as("a delete").isInstanceOf(BitCaskException.class);
            assertThatThrownBy(db::merge).as("a merge").isInstanceOf(BitCaskException.class);
            assertThat(db.get("a")).as("reads go on").isEqualTo(one);
        } finally {
            try {
                db.close();
            } catch (BitCaskException mayFail) {
                // the store was told its data may not be durable; close may say so again
            }
        }
        try (BitCask reopened = BitCask.open(dir, BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT_SIZE).build())) {
            for (String key : acked) {
                assertThat(reopened.get(key)).as("acknowledged %s after reopen", key).isEqualTo(one);
            }
            assertThat(reopened.get("later")).isNull();
            reopened.put("later", one);
        }
    }

    /** What the store must do after the fault, until it is reopened. */
    private enum Expect {
        /** Every later call succeeds. */
        GOES_ON,
        /** Every later write throws and says to reopen; reads go on. */
        REFUSES_WRITES,
        /** A force failed on the way out of a backup: either of the above. */
        EITHER
    }

    /** One run of the script with (k > 0) or without (k = 0) a fault. */
    private static final class Run {
        final Backend backend;
        final SyncPolicy policy;
        final long seed;
        final List<Step> script;
        final long k;
        final Path dir;
        final Path backupDir;
        final FaultyBackend faulty;
        final PossibleWorlds worlds = new PossibleWorlds();
        final List<String> violations = new ArrayList<>();
        PossibleWorlds atBackup;
        BitCask db;
        long calls;
        /** The step the fault fired in, while the store it happened to is still open; else null. */
        Step faultedStep;
        Expect expect;

        Run(Backend backend, SyncPolicy policy, long seed, List<Step> script, long k, Path base) {
            this.backend = backend;
            this.policy = policy;
            this.seed = seed;
            this.script = script;
            this.k = k;
            this.dir = base.resolve("db");
            this.backupDir = base.resolve("backup");
            this.faulty = new FaultyBackend(backend.create());
            faulty.skipRealForces = true;
            faulty.tornFaults(true);
            faulty.countOnly(Thread.currentThread());
            if (k > 0) {
                faulty.failCall(k);
            }
        }

        BitCaskOptions options(SegmentBackendChoice choice) {
            BitCaskOptions.Builder b = BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT_SIZE).syncPolicy(policy);
            if (choice == SegmentBackendChoice.FAULTY) {
                b.segmentBackend(faulty);
            }
            return b.build();
        }

        String describe() {
            Call c = faulty.fired();
            String shown = String.join("; ", violations.subList(0, Math.min(3, violations.size())));
            return "k=" + k + " (" + (c == null ? "never fired" : c) + "): " + shown
                    + (violations.size() > 3 ? "; and " + (violations.size() - 3) + " more" : "");
        }

        void violation(String what) {
            violations.add(what);
        }

        void execute() {
            for (int i = 0; i < script.size(); i++) {
                step(i, script.get(i));
            }
            calls = faulty.count();
            verify(dir, worlds, "after reopen");
            if (atBackup != null) {
                verify(backupDir, atBackup, "the backup");
            }
        }

        private void step(int index, Step s) {
            if (s.kind() != Step.Kind.OPEN && db == null) {
                return; // the open of this session failed
            }
            Call firedBefore = faulty.fired();
            byte[] got = null;
            RuntimeException error = null;
            try {
                switch (s.kind()) {
                    case OPEN -> db = BitCask.open(dir, options(SegmentBackendChoice.FAULTY));
                    case CLOSE -> db.close();
                    default -> got = s.runOn(db, backupDir);
                }
            } catch (RuntimeException e) {
                error = e;
            }
            Call firedHere = firedBefore == null ? faulty.fired() : null;
            String where = "step " + index + " " + s;
            if (error != null && !(error instanceof BitCaskException)) {
                violation(where + " threw " + error + " at " + topFrame(error));
            }
            boolean refused = false;
            if (firedHere != null) {
                onFault(s, firedHere, error, where);
            } else if (faultedStep != null) {
                refused = afterFault(s, error, where);
            } else if (error != null) {
                violation(where + " threw without a fault: " + error);
            }
            if (s.mutates()) {
                if (error == null) {
                    worlds.applied(s);
                } else if (!refused) {
                    worlds.maybeApplied(s);
                }
            }
            if (s.kind() == Step.Kind.GET && error == null && !worlds.allows(s.key(), got)) {
                violation(where + " read " + StoreState.describe(got) + ", which no possible content holds");
            }
            if (s.kind() == Step.Kind.BACKUP && error == null) {
                atBackup = worlds.snapshot();
            }
            if (s.kind() == Step.Kind.OPEN && error != null) {
                db = null;
                checkReleased(where);
            }
            if (s.kind() == Step.Kind.CLOSE) {
                db = null;
                faultedStep = null;
                checkReleased(where);
            }
        }

        /** Checks the step in which the fault fired; sets what the store must do next. */
        private void onFault(Step s, Call call, RuntimeException error, String where) {
            boolean hint = isHint(call.path()) || (call.other() != null && isHint(call.other()));
            boolean debris = call.kind() == Kind.DELETE && call.path().getFileName().toString().endsWith(".tmp");
            boolean mustThrow = !call.kind().isRead() && !hint && !debris;
            if (mustThrow && error == null) {
                violation(where + " returned normally although " + call.kind() + " of " + call.path() + " failed");
            }
            if (call.kind() == Kind.WRITE_FILE && hint && error != null) {
                violation(where + " threw " + error + ", but a failed hint write must only be logged");
            }
            if (s.kind() == Step.Kind.OPEN || s.kind() == Step.Kind.CLOSE || db == null) {
                return;
            }
            faultedStep = s;
            if (!call.kind().isForce()) {
                expect = Expect.GOES_ON;
            } else if (s.kind() == Step.Kind.BACKUP) {
                expect = call.path().startsWith(backupDir) ? Expect.GOES_ON : Expect.EITHER;
            } else {
                expect = Expect.REFUSES_WRITES;
                if (policy == SyncPolicy.ALWAYS && s.mutates()) {
                    readBackUndurable(s, where);
                }
            }
        }

        /**
         * Under ALWAYS, a write whose force failed is not durable, so a read must not return it:
         * each key it touched reads as before (or the read throws). Runs before the model counts
         * the write, so the possible contents are those without it.
         */
        private void readBackUndurable(Step s, String where) {
            for (Step w : s.kind() == Step.Kind.BATCH ? s.batch() : List.of(s)) {
                try {
                    byte[] got = db.get(w.key());
                    if (!worlds.allows(w.key(), got)) {
                        violation(where + ": get(" + w.key() + ") after its failed force returned the write that was not made durable");
                    }
                } catch (BitCaskException refused) {
                    // allowed: the record is not durable
                } catch (RuntimeException e) {
                    violation(where + ": get(" + w.key() + ") after a failed force threw " + e);
                }
            }
        }

        /** Checks a step after the fault, in the same session; returns true when it refused a write. */
        private boolean afterFault(Step s, RuntimeException error, String where) {
            if (expect == Expect.EITHER && s.isWrite()) {
                expect = error != null && saysReopen(error) ? Expect.REFUSES_WRITES : Expect.GOES_ON;
            }
            if (expect == Expect.REFUSES_WRITES) {
                if (s.isWrite()) {
                    if (error == null) {
                        violation(where + " was acknowledged after a failed force");
                    } else if (!saysReopen(error)) {
                        violation(where + " was refused after a failed force, but its message does not say to reopen: " + error);
                    } else {
                        return true;
                    }
                } else if (s.kind() == Step.Kind.GET && error != null && policy != SyncPolicy.ALWAYS) {
                    violation(where + " threw after a failed force, but reads go on: " + error);
                }
                return false; // sync, backup and close may fail too
            }
            boolean mergeRefusedAfterFailedMerge = s.kind() == Step.Kind.MERGE && faultedStep.kind() == Step.Kind.MERGE;
            if (error != null && !mergeRefusedAfterFailedMerge) {
                violation(where + " threw after the fault in " + faultedStep + ", but the store must go on: " + error);
            }
            return false;
        }

        private static boolean saysReopen(RuntimeException e) {
            return e instanceof BitCaskException && String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("reopen");
        }

        private static boolean isHint(Path p) {
            String n = p.getFileName().toString();
            return n.endsWith(".hint") || n.endsWith(".hint.tmp");
        }

        private void checkReleased(String where) {
            if (faulty.openHandles() != 0) {
                violation(where + " left " + faulty.openHandles() + " file handles open");
            }
        }

        /** Reopens {@code store} without faults and checks it holds one of the possible contents. */
        private void verify(Path store, PossibleWorlds possible, String what) {
            try (BitCask r = BitCask.open(store, options(SegmentBackendChoice.PLAIN))) {
                TreeMap<String, byte[]> state = StoreState.read(r);
                if (!possible.allows(state)) {
                    violation(what + ": the contents are none of the possible ones:" + possible.explain(state));
                }
                for (int i = 0; i <= 22; i++) {
                    String key = "k" + i;
                    byte[] got = r.get(key);
                    if (!java.util.Arrays.equals(got, state.get(key))) {
                        violation(what + ": get(" + key + ") = " + StoreState.describe(got) + " but forEach saw "
                                + StoreState.describe(state.get(key)));
                    }
                }
                byte[] probe = "probe".getBytes(StandardCharsets.UTF_8);
                r.put("probe", probe);
                if (!java.util.Arrays.equals(r.get("probe"), probe)) {
                    violation(what + ": a put after reopen did not read back");
                }
            } catch (RuntimeException e) {
                violation(what + ": open or read failed: " + e + " at " + topFrame(e));
            }
        }

        private static String topFrame(Throwable e) {
            StackTraceElement[] st = e.getStackTrace();
            return st.length == 0 ? "?" : st[0].toString();
        }
    }

    /** Whether a store is opened through the fault-injecting wrapper or on the plain backend. */
    private enum SegmentBackendChoice {
        FAULTY,
        PLAIN
    }
}
