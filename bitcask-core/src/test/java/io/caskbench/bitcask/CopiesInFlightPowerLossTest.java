package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.PowerCuts;
import io.caskbench.bitcask.testing.PowerLossBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;


/**
 * The power-loss model with copies held in flight: two threads put values of up to 32 KiB while
 * one copy in four stops halfway for a while (as a writer that lost its core does), and a third
 * thread writes and then calls a barrier ({@code sync()}, {@code merge()} or
 * {@code merge(MergeScope.ALL)}), racing rollovers of small segments and, under {@code INTERVAL},
 * the background force. The power is cut at a random moment, or just after a {@code close()} that
 * raced the copies; the surviving image is reopened without the wrappers.
 *
 * <p>Each thread owns its keys, and each write of a key carries a version that rises, so the model
 * of each key is a sequence. After the reopen: every value is one that was written for its key
 * (never wrong bytes, never a key nobody wrote), and every key holds a version no older than the
 * one acknowledged before the last barrier that returned (by any thread: a barrier covers every
 * write that returned before it was called). {@code -Dcaskbench.powerLossCycles=N} runs N/4
 * cycles per backend and policy (default 20, so 5); {@code -Dcaskbench.seed} fixes the first seed.
 */
class CopiesInFlightPowerLossTest {

    private static final int CYCLES = Math.max(1, Integer.getInteger("caskbench.powerLossCycles", 20) / 4);
    private static final int SEGMENT_SIZE = 256 << 10;
    private static final int COPIERS = 2;

    @TempDir
    Path tmp;

    static Stream<Arguments> combinations() {
        return Backends.available().stream().flatMap(b -> Stream.of(SyncPolicy.values()).map(p -> Arguments.of(b, p)));
    }

    private static BitCaskOptions options(Backend backend, SyncPolicy policy, WatchingBackend wrapped) {
        BitCaskOptions.Builder b = BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT_SIZE).syncPolicy(policy)
                .syncInterval(Duration.ofMillis(2)).mergeMaxInputBytes(SEGMENT_SIZE).mergeSmallSegmentBytes(0)
                .maxValueSize(64 << 10);
        if (wrapped != null) {
            b.segmentBackend(wrapped);
        }
        return b.build();
    }

    /** One write of a key: its version, and whether it deleted the key. */
    private record Write(long version, boolean delete) {
    }

    /** The writes of every key, issued and acknowledged; each key is written by one thread only. */
    private static final class History {
        /** Every write issued, in order, per key; the owning thread appends before it calls the store. */
        final Map<String, List<Write>> issued = new ConcurrentHashMap<>();
        /** The version of each key's newest acknowledged write; the owning thread raises it. */
        final Map<String, Long> acked = new ConcurrentHashMap<>();
        /** The versions every key must hold at least, from the last barrier that returned. */
        volatile Map<String, Long> required = Map.of();
        /** Set before the test closes the store: from then on a refusal is expected. */
        volatile boolean closing;

        void issue(String key, Write w) {
            issued.computeIfAbsent(key, k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(w);
        }
    }

    /** A value no other write produces: its key and version, repeated to {@code len} bytes. */
    static byte[] value(String key, long version, int len) {
        byte[] tag = (key + "#" + version + ";").getBytes(StandardCharsets.UTF_8);
        byte[] v = new byte[Math.max(len, tag.length)];
        for (int i = 0; i < v.length; i += tag.length) {
            System.arraycopy(tag, 0, v, i, Math.min(tag.length, v.length - i));
        }
        return v;
    }

    /** The version a value of {@code key} carries, or -1 when its bytes are not one that was ever made for it. */
    static long versionOf(String key, byte[] v) {
        String s = new String(v, StandardCharsets.ISO_8859_1);
        int hash = s.indexOf('#');
        int semi = s.indexOf(';');
        if (hash < 0 || semi < hash || !s.substring(0, hash).equals(key)) {
            return -1;
        }
        long version;
        try {
            version = Long.parseLong(s.substring(hash + 1, semi));
        } catch (NumberFormatException e) {
            return -1;
        }
        return java.util.Arrays.equals(v, value(key, version, v.length)) ? version : -1;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("combinations")
    void barriersHoldWhileCopiesAreInFlight(Backend backend, SyncPolicy policy) throws Exception {
        PowerCuts.run(tmp, CYCLES, "power cuts with copies in flight broke the contract (" + backend + " " + policy + ")",
                (seed, dir) -> cycle(backend, policy, seed, dir));
    }

    /** One cycle; returns what went wrong, or null. */
    private static String cycle(Backend backend, SyncPolicy policy, long seed, Path base) throws Exception {
        Random rnd = new Random(seed);
        boolean closeFirst = rnd.nextInt(4) == 0;
        long runNanos = TimeUnit.MILLISECONDS.toNanos(30 + rnd.nextInt(250));
        String where = "-Dcaskbench.seed=" + seed + " -Dcaskbench.powerLossCycles=4"
                + (closeFirst ? " (cut after a close)" : " (cut while running)");
        Path dir = base.resolve("db");
        PowerLossBackend power = new PowerLossBackend(backend.create(), dir);
        WatchingBackend held = new WatchingBackend(power);
        held.midWrite = name -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            if (r.nextInt(4) == 0) {
                LockSupport.parkNanos(r.nextLong(20_000, 2_000_000));
            }
        };
        History history = new History();
        List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        BitCask db = BitCask.open(dir, options(backend, policy, held));
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < COPIERS; t++) {
            threads.add(new Thread(() -> copier(db, history, power, problems), "copier-" + t));
        }
        threads.add(new Thread(() -> barriers(db, history, power, problems, seed), "barriers"));
        threads.forEach(Thread::start);
        LockSupport.parkNanos(runNanos);
        try {
            if (closeFirst) {
                Map<String, Long> beforeClose = new HashMap<>(history.acked);
                history.closing = true;
                db.close(); // races the copies; a close is a barrier for every write that returned before it
                history.required = beforeClose;
            }
        } catch (RuntimeException e) {
            problems.add("close with the power on threw " + e);
        } finally {
            power.cut();
            // Closed before the writers are joined: a writer held by a write stall waits for a merge
            // that the cut makes fail, and only a close (or the stall's timeout) lets it go.
            history.closing = true;
            try {
                db.close();
            } catch (BitCaskException expected) {
                // the power is out: close may fail, but must release everything
            } catch (RuntimeException e) {
                problems.add("close after the cut threw " + e + " instead of BitCaskException");
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                if (t.isAlive()) {
                    problems.add(t.getName() + " did not stop within 60 s of the close");
                }
            }
        }
        Path image = base.resolve("image");
        power.materialize(image);
        try (BitCask recovered = BitCask.open(image, options(backend, policy, null))) {
            check(recovered, history, problems);
        } catch (RuntimeException e) {
            problems.add("opening the surviving image failed: " + e);
        }
        if (!power.divergenceAtCut().isEmpty() || !power.bypasses().isEmpty()) {
            problems.add("files changed behind the backend, so the model cannot say what survives: "
                    + power.divergenceAtCut() + " " + power.bypasses());
        }
        return problems.isEmpty() ? null : where + ": " + String.join("; ", problems.subList(0, Math.min(5, problems.size())));
    }

    /** Puts values of up to 32 KiB on its own keys until the store refuses. */
    private static void copier(BitCask db, History history, PowerLossBackend power, List<String> problems) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String prefix = Thread.currentThread().getName() + "-";
        Map<String, Long> versions = new HashMap<>();
        while (true) {
            String key = prefix + r.nextInt(24);
            long version = versions.merge(key, 1L, Long::sum);
            int len = r.nextInt(4) == 0 ? 4096 + r.nextInt(28 << 10) : r.nextInt(300);
            history.issue(key, new Write(version, false));
            if (!write(() -> db.put(key, value(key, version, len)), history, power, problems)) {
                return;
            }
            history.acked.put(key, version);
        }
    }

    /** Writes a few of its own keys, then calls a barrier; raises what every key must hold once it returns. */
    private static void barriers(BitCask db, History history, PowerLossBackend power, List<String> problems, long seed) {
        Random r = new Random(seed ^ 0x5DEECE66DL);
        Map<String, Long> versions = new HashMap<>();
        while (true) {
            for (int n = 1 + r.nextInt(5); n > 0; n--) {
                String key = "b-" + r.nextInt(64);
                long version = versions.merge(key, 1L, Long::sum);
                boolean delete = r.nextInt(5) == 0;
                history.issue(key, new Write(version, delete));
                Runnable w = delete ? () -> db.delete(key) : () -> db.put(key, value(key, version, r.nextInt(200)));
                if (!write(w, history, power, problems)) {
                    return;
                }
                history.acked.put(key, version);
            }
            Map<String, Long> before = new HashMap<>(history.acked);
            int which = r.nextInt(10);
            Runnable barrier = which < 6 ? db::sync : which < 9 ? db::merge : () -> db.merge(MergeScope.ALL);
            if (!write(barrier, history, power, problems)) {
                return;
            }
            history.required = before;
        }
    }

    /** Runs {@code w}; false once the store refuses (power cut or closed), noting a refusal with the power on. */
    private static boolean write(Runnable w, History history, PowerLossBackend power, List<String> problems) {
        try {
            w.run();
            return true;
        } catch (BitCaskException e) {
            if (!power.isCut() && !history.closing) {
                problems.add(Thread.currentThread().getName() + " was refused with the power on: " + e);
            }
            return false;
        } catch (IllegalStateException e) {
            if (!history.closing) {
                problems.add(Thread.currentThread().getName() + " threw " + e);
            }
            return false;
        }
    }

    /** Checks the recovered store against the history. */
    private static void check(BitCask recovered, History history, List<String> problems) {
        TreeMap<String, byte[]> state = new TreeMap<>();
        recovered.forEach((k, v) -> state.put(new String(k, StandardCharsets.UTF_8), v));
        for (Map.Entry<String, byte[]> e : state.entrySet()) {
            String key = e.getKey();
            long version = versionOf(key, e.getValue());
            List<Write> writes = history.issued.get(key);
            if (version < 0 || writes == null || !writes.contains(new Write(version, false))) {
                problems.add("key " + key + " holds bytes nobody wrote for it");
            }
        }
        for (Map.Entry<String, Long> e : history.required.entrySet()) {
            String key = e.getKey();
            long required = e.getValue();
            List<Write> writes = List.copyOf(history.issued.get(key));
            byte[] v = state.get(key);
            if (v != null) {
                long version = versionOf(key, v);
                if (version >= 0 && version < required) {
                    problems.add("key " + key + " came back at version " + version + ", older than version " + required
                            + " acknowledged before a barrier that returned");
                }
            } else {
                boolean deletedSince = writes.stream().anyMatch(w -> w.delete() && w.version() >= required);
                if (!deletedSince) {
                    problems.add("key " + key + " is gone, though version " + required
                            + " was acknowledged before a barrier that returned and nothing deleted it");
                }
            }
        }
    }
}
