package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.FaultyBackend;
import io.caskbench.bitcask.testing.FaultyBackend.Call;
import io.caskbench.bitcask.testing.FaultyBackend.Kind;
import io.caskbench.bitcask.testing.PossibleWorlds;
import io.caskbench.bitcask.testing.Step;
import io.caskbench.bitcask.testing.StoreState;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * One run of {@link IoErrorSweepTest}'s script with (k > 0) or without (k = 0) the k-th call
 * failing, and the checks of the failure contract on it; what broke it ends up in
 * {@link #violations}.
 */
final class SweepRun {

    /** Segment size of the script's store: small, so that it rolls over. */
    static final int SEGMENT_SIZE = 64 << 10;

    final Backend backend;
    final SyncPolicy policy;
    final long seed;
    final List<Step> script;
    final long k;
    final Path dir;
    final Path backupDir;
    final Path checkpointDir;
    final FaultyBackend faulty;
    final PossibleWorlds worlds = new PossibleWorlds();
    final List<String> violations = new ArrayList<>();
    PossibleWorlds atBackup;
    PossibleWorlds atCheckpoint;
    BitCask db;
    long calls;
    /** The step the fault fired in, while the store it happened to is still open; else null. */
    Step faultedStep;
    Expect expect;

    SweepRun(Backend backend, SyncPolicy policy, long seed, List<Step> script, long k, Path base) {
        this.backend = backend;
        this.policy = policy;
        this.seed = seed;
        this.script = script;
        this.k = k;
        this.dir = base.resolve("db");
        this.backupDir = base.resolve("backup");
        this.checkpointDir = Step.checkpointDir(backupDir);
        this.faulty = new FaultyBackend(backend.create());
        faulty.skipRealForces = true;
        faulty.tornFaults(true);
        faulty.countOnly(Thread.currentThread());
        if (k > 0) {
            faulty.failCall(k);
        }
    }

    BitCaskOptions options(SegmentBackendChoice choice) {
        // A merge reads one segment at most, so the script's merge is a partial one that leaves older segments behind.
        // No automatic merge: the k-th I/O call must be the script's own, and a background merge's forces would
        // make durable what the script's model holds as lost.
        BitCaskOptions.Builder b = BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT_SIZE).syncPolicy(policy)
                .mergeMaxInputBytes(SEGMENT_SIZE).mergeSmallSegmentBytes(0).autoMerge(false);
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
        if (atCheckpoint != null) {
            verify(checkpointDir, atCheckpoint, "the checkpoint");
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
        if (s.kind() == Step.Kind.CHECKPOINT && error == null) {
            atCheckpoint = worlds.snapshot();
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
        } else if (s.kind() == Step.Kind.BACKUP || s.kind() == Step.Kind.CHECKPOINT) {
            boolean intoTheCopy = call.path().startsWith(backupDir) || call.path().startsWith(checkpointDir);
            expect = intoTheCopy ? Expect.GOES_ON : Expect.EITHER;
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
            return false; // sync, backup, checkpoint and close may fail too
        }
        boolean mergeRefusedAfterFailedMerge = s.isMerge() && faultedStep.isMerge();
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
                if (!Arrays.equals(got, state.get(key))) {
                    violation(what + ": get(" + key + ") = " + StoreState.describe(got) + " but forEach saw "
                            + StoreState.describe(state.get(key)));
                }
            }
            byte[] probe = "probe".getBytes(StandardCharsets.UTF_8);
            r.put("probe", probe);
            if (!Arrays.equals(r.get("probe"), probe)) {
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

    /** What the store must do after the fault, until it is reopened. */
    private enum Expect {
        /** Every later call succeeds. */
        GOES_ON,
        /** Every later write throws and says to reopen; reads go on. */
        REFUSES_WRITES,
        /** A force failed on the way out of a backup or checkpoint: either of the above. */
        EITHER
    }

    /** Whether a store is opened through the fault-injecting wrapper or on the plain backend. */
    private enum SegmentBackendChoice {
        FAULTY,
        PLAIN
    }
}
