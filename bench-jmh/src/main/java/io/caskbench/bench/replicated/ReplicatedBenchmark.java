package io.caskbench.bench.replicated;

import io.caskbench.bench.store.fixture.StoreDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the replicated benchmarks share: the trial's set-up starts the {@link Deployment} under a fresh folder
 * of the benchmark's scratch directory ({@code -Dcaskbench.data}, else the system's temp directory), waits for
 * its leaders and writes every key once; the tear-down stops it and deletes the folder. None of that is
 * timed. Keys are made before measuring, so no key is formatted in the timed region.
 */
@Fork(1)
@State(Scope.Benchmark)
public abstract class ReplicatedBenchmark {

    /** The store the row runs against. */
    @Param({"SINGLE", "REPLICATED", "SHARDED"})
    public Deployment deployment;

    /** Distinct keys, all written before measuring. */
    @Param("2000")
    public int keyCount;

    /** Value length in bytes. */
    @Param("256")
    public int valueSize;

    /** The keys; written by the set-up, read by every benchmark thread after it. */
    protected byte[][] keys;
    /** The value every put writes. */
    protected byte[] value;
    /** The running target; set up and torn down by JMH's trial thread. */
    protected Target target;
    /** The target's files. */
    private Path dir;

    /** For subclasses. */
    protected ReplicatedBenchmark() {
    }

    /** Starts the deployment and writes every key once. */
    @Setup(Level.Trial)
    public void start() {
        keys = new byte[keyCount][];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = String.format(Locale.ROOT, "key%09d", i).getBytes(StandardCharsets.US_ASCII);
        }
        value = new byte[valueSize];
        Arrays.fill(value, (byte) 'v');
        dir = StoreDirs.create("replicated");
        target = deployment.open(dir);
        target.fill(keys, value);
    }

    /** Stops the deployment and deletes its files. */
    @TearDown(Level.Trial)
    public void stop() {
        try {
            if (target != null) {
                target.close();
            }
        } finally {
            StoreDirs.delete(dir);
        }
    }

    /** The value of key {@code i}, which the fill wrote: a missing one fails the run instead of timing a miss. */
    protected final byte[] mustGet(int i) {
        byte[] v = target.get(keys[i]);
        if (v == null) {
            throw new IllegalStateException("key " + i + " was written and is missing");
        }
        return v;
    }
}
