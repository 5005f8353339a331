package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.CrashWorkload;
import io.caskbench.bitcask.testing.WatchingBackend;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The child side of the crash test with many concurrent writers: each writer thread owns the keys
 * {@code k<n>} with {@code n % WRITERS} equal to its number, runs a sequence of puts and deletes
 * derived from the seed and its number, and prints {@code <writer> <op>} after the store
 * acknowledged each. Values run up to 16 KiB, so a {@code kill -9} often lands in the middle of a
 * copy, and one copy in eight stops halfway for a while, as a writer that lost its core does; one
 * more thread calls {@code sync()} and merges all the while. The parent replays each writer's
 * sequence to know what must be in the store.
 */
final class WriterCrashWorkload {

    /** Writer threads. */
    public static final int WRITERS = 16;
    /** Keys of each writer. */
    public static final int KEYS_PER_WRITER = 64;

    private WriterCrashWorkload() {
    }

    /** Store options: small segments, so rollovers meet copies in flight. */
    public static BitCaskOptions options(Backend backend, SyncPolicy policy) {
        return BitCaskOptions.builder().backend(backend).syncPolicy(policy).syncInterval(Duration.ofMillis(20))
                .segmentSize(256 << 10).maxValueSize(32 << 10).build();
    }

    /** The random sequence of writer {@code writer} in a run of {@code seed}. */
    public static Random sequence(long seed, int writer) {
        return new Random(seed * 1_000_003L + writer);
    }

    /** Operation {@code op} of writer {@code writer}. */
    public static void op(Random rnd, int writer, long op, CrashWorkload.Sink sink) {
        int key = writer + WRITERS * rnd.nextInt(KEYS_PER_WRITER);
        int len = rnd.nextInt(8) == 0 ? 4096 + rnd.nextInt(12 << 10) : rnd.nextInt(600);
        if (rnd.nextInt(100) < 88) {
            sink.put(key, value(writer, op, key, len));
        } else {
            sink.delete(key);
        }
    }

    /** A value no other operation writes: its writer, op and key, repeated to {@code len} bytes. */
    public static byte[] value(int writer, long op, int key, int len) {
        byte[] tag = ("w" + writer + "-op" + op + "-k" + key + ";").getBytes(StandardCharsets.UTF_8);
        byte[] v = new byte[Math.max(len, tag.length)];
        for (int i = 0; i < v.length; i += tag.length) {
            System.arraycopy(tag, 0, v, i, Math.min(tag.length, v.length - i));
        }
        return Arrays.copyOf(v, v.length);
    }

    /** Args: directory, backend, sync policy, seed. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Backend backend = Backend.valueOf(args[1]);
        SyncPolicy policy = SyncPolicy.valueOf(args[2]);
        long seed = Long.parseLong(args[3]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        WatchingBackend slow = new WatchingBackend(backend.create());
        slow.midWrite = name -> {
            // One copy in eight stops halfway for up to 20 ms, as a writer that lost its core does,
            // while the others go on and return: the kill then often finds a hole before them.
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            if (rnd.nextInt(8) == 0) {
                LockSupport.parkNanos(rnd.nextInt(1, 20) * 1_000_000L);
            }
        };
        BitCask db = BitCask.open(dir, options(backend, policy).toBuilder().segmentBackend(slow).build());
        out.println("READY");
        out.flush();
        // Barriers race the copies: sync(), a selective merge and a full one in turn, as an
        // operator's maintenance does, so a kill also lands in a merge's copy or seal.
        Thread barriers = new Thread(() -> {
            MergeScope[] scopes = {MergeScope.SELECTED, MergeScope.ALL};
            for (int n = 0; ; n++) {
                db.sync();
                db.merge(scopes[n % 2]);
                LockSupport.parkNanos(2_000_000);
            }
        });
        barriers.setDaemon(true);
        barriers.start();
        for (Thread t : startWriters(db, seed, out)) {
            t.join();
        }
    }

    /** Starts the writers on {@code db}, each printing {@code <writer> <op>} to {@code out} once its op returned. */
    static Thread[] startWriters(BitCask db, long seed, PrintStream out) {
        Thread[] writers = new Thread[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers[w] = new Thread(() -> {
                Random rnd = sequence(seed, writer);
                CrashWorkload.Sink store = CrashWorkload.store(db);
                for (long op = 0; op < 50_000_000L; op++) {
                    op(rnd, writer, op, store);
                    synchronized (out) {
                        out.println(writer + " " + op);
                        out.flush();
                    }
                }
            });
            writers[w].start();
        }
        return writers;
    }
}
