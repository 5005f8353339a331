package io.caskbench.raft.lincheck;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.client.ReplicatedBitCask;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threading: {@link #start} and {@link #stop} from the test thread; one thread per client.
 *
 * <p>Several clients, each with its own connection, putting and getting a few shared keys (every
 * value unique) and writing keys of their own, until stopped. Every shared-key operation goes
 * into the {@link History}; every acknowledged write of an own key is remembered, to be read back.
 */
public final class Workload {

    /** The history of the shared keys. */
    public final History history = new History();
    /** Own keys whose write was acknowledged, with their value. */
    public final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    /** Calls that failed (no majority within the timeout, or another failure). */
    public final AtomicLong failures = new AtomicLong();

    /** The client threads. */
    private final List<Thread> threads = new ArrayList<>();
    /** Set to stop the clients. */
    private volatile boolean stop;
    /** The first unexpected error of a client thread. */
    private volatile Throwable error;

    /** Starts {@code clients} clients of {@code cluster} on {@code keys} shared keys; random choices from {@code seed}. */
    public Workload(Cluster cluster, int clients, int keys, long seed, Duration timeout) {
        for (int c = 0; c < clients; c++) {
            int id = c;
            Random random = new Random(seed + c);
            threads.add(new Thread(() -> run(cluster, id, keys, random, timeout), "client-" + c));
        }
    }

    /** Starts the clients. */
    public Workload start() {
        threads.forEach(Thread::start);
        return this;
    }

    private void run(Cluster cluster, int id, int keys, Random random, Duration timeout) {
        try (ReplicatedBitCask client = ReplicatedBitCask.connect(cluster, timeout)) {
            for (long seq = 0; !stop; seq++) {
                String key = "shared-" + random.nextInt(keys);
                String value = "c" + id + "-" + seq;
                int dice = random.nextInt(10);
                try {
                    if (dice < 4) {
                        history.put(id, key, value, () -> client.put(key, bytes(value)));
                    } else if (dice < 8) {
                        history.get(id, key, () -> string(client.get(key)));
                    } else {
                        String own = "own-" + value;
                        client.put(own, bytes(value));
                        acknowledged.put(own, value);
                    }
                } catch (BitCaskException e) {
                    failures.incrementAndGet();
                }
            }
        } catch (Throwable t) {
            error = t;
        }
    }

    /** Stops the clients and waits for them; throws what a client thread threw unexpectedly. */
    public void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " did not stop");
            }
        }
        if (error != null) {
            throw new AssertionError("a client failed", error);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
