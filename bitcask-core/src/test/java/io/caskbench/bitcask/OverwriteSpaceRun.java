package io.caskbench.bitcask;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A measurement, not a test: what a sustained overwrite at full speed does to a store's disk. Fills
 * {@code keys} keys of 16 bytes with 100-byte values, then overwrites keys drawn uniformly from 4 threads
 * for {@code seconds}, at full speed or at {@code rate} puts per second in all, on {@code MAPPED} under
 * {@code SyncPolicy.NONE}, and prints every 5 s the space amplification (the store's data and hint bytes
 * over its live bytes, and its data bytes alone over them), the puts per second of the interval, the
 * merges, and the write stalls.
 *
 * <pre>
 * ./mvnw -B -ntp -q -pl bitcask-core test-compile
 * java -cp bitcask-core/target/test-classes:bitcask-core/target/classes:$SLF4J_API \
 *     io.caskbench.bitcask.OverwriteSpaceRun /tmp/overwrite 60 200000 0 [autoMerge]
 * </pre>
 *
 * <p>A rate of 0 is full speed. With {@code autoMerge} it opens the store with {@code autoMerge(true)} set
 * explicitly (for a build whose default was off), else with the defaults. The directory is deleted first
 * and afterwards.
 */
public final class OverwriteSpaceRun {

    private static final int WRITERS = 4;
    private static final int VALUE_BYTES = 100;
    private static final long SAMPLE_MILLIS = 5_000;

    private OverwriteSpaceRun() {
    }

    /** Args: directory, seconds, keys, puts per second (0: full speed), and optionally {@code autoMerge}. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int seconds = Integer.parseInt(args[1]);
        int keys = Integer.parseInt(args[2]);
        long rate = Long.parseLong(args[3]);
        boolean explicit = args.length > 4 && args[4].equals("autoMerge");
        delete(dir);
        BitCaskOptions.Builder options = BitCaskOptions.builder().backend(Backend.MAPPED).syncPolicy(SyncPolicy.NONE)
                .expectedKeys(keys);
        if (explicit) {
            options.autoMerge(true);
        }
        byte[] value = new byte[VALUE_BYTES];
        new SplittableRandom(1).nextBytes(value);
        try (BitCask db = BitCask.open(dir, options.build())) {
            for (int k = 0; k < keys; k++) {
                db.put(key(k), value);
            }
            System.out.printf(Locale.ROOT, "filled %,d keys: %s%n", keys, db.stats().diskBytes());
            LongAdder puts = new LongAdder();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                SplittableRandom rnd = new SplittableRandom(100 + w);
                Thread t = new Thread(() -> {
                    long started = System.nanoTime();
                    for (long n = 0; !stop.get(); n++) {
                        if (rate > 0 && n % 100 == 0) {
                            long due = started + n * WRITERS * 1_000_000_000L / rate;
                            LockSupport.parkNanos(due - System.nanoTime());
                        }
                        db.put(key(rnd.nextInt(keys)), value);
                        puts.increment();
                    }
                });
                t.start();
                writers.add(t);
            }
            System.out.println("s,spaceAmp,dataAmp,puts/s,merges,stalledPuts,stallMillis,mergeDebtBytes");
            long start = System.nanoTime();
            long lastPuts = 0;
            for (int s = 5; s <= seconds; s += 5) {
                long due = start + s * 1_000_000_000L;
                while (System.nanoTime() < due) {
                    Thread.sleep(Math.max(1, (due - System.nanoTime()) / 1_000_000));
                }
                BitCaskStats st = db.stats();
                BitCaskCounters c = db.counters();
                long p = puts.sum();
                System.out.printf(Locale.ROOT, "%d,%.2f,%.2f,%d,%d,%s%n", s, (double) st.diskBytes() / st.liveBytes(),
                        (double) (st.liveBytes() + st.deadBytes()) / st.liveBytes(), (p - lastPuts) / 5, c.merges(),
                        c.stalledPuts() + "," + c.stallTime().toMillis() + "," + c.mergeDebtBytes());
                lastPuts = p;
            }
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
        } finally {
            delete(dir);
        }
    }

    private static byte[] key(int k) {
        return String.format(Locale.ROOT, "k%015d", k).getBytes(StandardCharsets.US_ASCII);
    }

    private static void delete(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
