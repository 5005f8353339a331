package io.caskbench.bench.replicated;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Why: how many puts and linearizable gets per second do 1, 8 and 64 clients get from a replicated store,
 * against the single-node store in the same run? Each JMH thread is one client calling back to back (closed
 * loop; the suite sets the thread count per run), overwriting or reading keys the set-up wrote.
 *
 * <p>Must not measure by accident: the replicas' start and election, the fill, key formatting (keys are
 * made in the set-up), or a miss (a get that finds nothing fails the run). The replicas' own deferred work
 * (log forcing, applying, snapshots) runs while measuring, as it must: it is what a replicated write costs.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReplicatedThroughput extends ReplicatedBenchmark {

    /** Creates the state; JMH fills it in the set-up. */
    public ReplicatedThroughput() {
    }

    /** One client's walk over the keys, from its own random start, so clients do not queue on one key. */
    @State(Scope.Thread)
    public static class Cursor {
        /** The next key's index; this thread only. */
        private int next;

        /** Creates the cursor; JMH starts it. */
        public Cursor() {
        }

        /** Picks the start. */
        @Setup(Level.Trial)
        public void start() {
            next = ThreadLocalRandom.current().nextInt(1 << 20);
        }

        /** The next index below {@code count}. */
        int next(int count) {
            next = (next + 7919) % count;
            return next;
        }
    }

    /** Overwrites a key; returns when the store acknowledged it (a majority's forced log, when replicated). */
    @Benchmark
    public void put(Cursor cursor) {
        target.put(keys[cursor.next(keyCount)], value);
    }

    /** Reads a key linearizably (through the leader's read index, when replicated). */
    @Benchmark
    public void get(Cursor cursor, Blackhole bh) {
        bh.consume(mustGet(cursor.next(keyCount)));
    }
}
