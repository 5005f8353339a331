package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;
import io.caskbench.bitcask.WriteBatch;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

/**
 * The child side of the crash tests: a deterministic sequence of operations derived from a seed,
 * each printed with its number after the store acknowledged it. The parent kills this process at
 * a random moment and replays the same sequence to know what must be in the store.
 *
 * <p>Operation {@code i}: with the workload's random generator, a key {@code k<n>} and either a
 * put of {@link #value(long, int)}, a delete, or (mode {@code batch}) an atomic batch of several.
 * In mode {@code merge}, a background thread merges continuously while operations run.
 */
public final class CrashWorkload {

    public static final int KEYS = 3000;

    private CrashWorkload() {
    }

    /** The bytes of the value op {@code op} writes to key {@code key}; never repeated elsewhere. */
    public static byte[] value(long op, int key) {
        String s = "op" + op + "-key" + key + "-";
        StringBuilder b = new StringBuilder();
        int len = (int) ((op * 31 + key) % 300);
        while (b.length() < len) {
            b.append(s);
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static BitCaskOptions options(Backend backend, SyncPolicy policy) {
        return BitCaskOptions.builder().backend(backend).syncPolicy(policy).syncInterval(Duration.ofMillis(20))
                .segmentSize(128 << 10).maxValueSize(8 << 10).build();
    }

    /** Applies operation {@code op} to a sink: the store in the child, the oracle in the parent. */
    public interface Sink {
        void put(int key, byte[] value);

        void delete(int key);

        void batch(int[] keys, byte[][] values); // null value = delete
    }

    public static void op(Random rnd, long op, String mode, Sink sink) {
        int dice = rnd.nextInt(100);
        if ("batch".equals(mode) && dice < 40) {
            int n = 2 + rnd.nextInt(6);
            int[] keys = new int[n];
            byte[][] values = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = rnd.nextInt(KEYS);
                values[i] = rnd.nextInt(5) == 0 ? null : value(op * 16 + i, keys[i]);
            }
            sink.batch(keys, values);
            return;
        }
        int key = rnd.nextInt(KEYS);
        if (dice < 85) {
            sink.put(key, value(op, key));
        } else {
            sink.delete(key);
        }
    }

    /** The sink that applies operations to {@code db}, under the keys {@code k<n>}. */
    public static Sink store(BitCask db) {
        return new Sink() {
            @Override
            public void put(int key, byte[] value) {
                db.put("k" + key, value);
            }

            @Override
            public void delete(int key) {
                db.delete("k" + key);
            }

            @Override
            public void batch(int[] keys, byte[][] values) {
                WriteBatch b = new WriteBatch();
                for (int i = 0; i < keys.length; i++) {
                    if (values[i] == null) {
                        b.delete("k" + keys[i]);
                    } else {
                        b.put("k" + keys[i], values[i]);
                    }
                }
                db.write(b);
            }
        };
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Backend backend = Backend.valueOf(args[1]);
        SyncPolicy policy = SyncPolicy.valueOf(args[2]);
        String mode = args[3];
        long seed = Long.parseLong(args[4]);
        Random rnd = new Random(seed);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BitCask db = BitCask.open(dir, options(backend, policy));
        if ("merge".equals(mode)) {
            Thread merger = new Thread(() -> {
                while (true) {
                    try {
                        db.merge();
                        Thread.sleep(5);
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            merger.setDaemon(true);
            merger.start();
        }
        Sink store = store(db);
        out.println("READY");
        out.flush();
        for (long op = 0; op < 50_000_000L; op++) {
            op(rnd, op, mode, store);
            out.println(op);
            out.flush();
        }
    }
}
