package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.WatchingBackend;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The child side of {@link StallCrashTest}: the writers of {@link WriterCrashWorkload} on a store with a
 * tight space bound whose merges never finish, since every merge output stops at its first write. Nothing
 * is reclaimed, so the writers are delayed and then stopped at the bound. A watcher prints {@code STALLED}
 * once a put has waited; the parent kills the process some time after.
 */
final class StallCrashWorkload {

    private StallCrashWorkload() {
    }

    /** Args: directory, backend, sync policy, seed. */
    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        Backend backend = Backend.valueOf(args[1]);
        SyncPolicy policy = SyncPolicy.valueOf(args[2]);
        long seed = Long.parseLong(args[3]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        WatchingBackend held = new WatchingBackend(backend.create());
        held.midWrite = name -> {
            if (name.endsWith(".data.tmp")) {
                while (true) {
                    Thread.interrupted(); // else a pending interrupt makes the park return at once, every time
                    LockSupport.park(); // a merge that never finishes: nothing is reclaimed
                }
            }
            if (ThreadLocalRandom.current().nextInt(8) == 0) {
                LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(1, 20) * 1_000_000L); // a copy in flight
            }
        };
        BitCask db = BitCask.open(dir, WriterCrashWorkload.options(backend, policy).toBuilder().segmentBackend(held)
                .autoMerge(true).maxSpaceAmplification(1.5).writeStallTimeout(Duration.ofMinutes(10)).build());
        out.println("READY");
        out.flush();
        Thread watcher = new Thread(() -> {
            while (db.counters().stalledPuts() == 0) {
                LockSupport.parkNanos(1_000_000);
            }
            synchronized (out) {
                out.println("STALLED");
                out.flush();
            }
        });
        watcher.setDaemon(true);
        watcher.start();
        WriterCrashWorkload.startWriters(db, seed, out);
    }
}
