package io.caskbench.bench.open;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Why: open time is what a service pays on every restart. Hint files exist so that open does not
 * read every value; this benchmark proves it by opening the same store with its hint files and
 * with them removed (a full scan of every data file).
 *
 * <p>Open has no steady state, so each measurement is one cold-ish open ({@code SingleShotTime}).
 * The store is filled once per trial, outside the measurement. The open is read-only, so closing
 * it writes no new hint file that would turn a "scan" iteration into a "hints" one. The page
 * cache is warm in both cases: this measures reading and parsing, not the disk. The open sets no
 * {@code expectedKeys}, as a plain restart would not: with hint files the key directory is sized from
 * their footers at once, while a scan grows it as it goes, and that growth is part of what hints save.
 * The targets suite runs a GC between iterations, so the last open's garbage is not collected inside
 * the next measurement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class OpenBench {

    /** Keys in the store. */
    @Param({"1000000"})
    public int keyCount;

    /** Whether the hint files are there. */
    @Param({"hints", "scan"})
    public String mode;

    /** Backend used for open. */
    @Param({"MAPPED"})
    public Backend backend;

    private Path dir;
    private BitCask opened;

    /** Fills a store with 16-byte keys and 100-byte values, closes it, and drops hints for "scan". */
    @Setup(Level.Trial)
    public void fill() throws IOException {
        dir = StoreDirs.create(StoreKind.of(backend));
        BitCaskOptions options = BitCaskOptions.builder().backend(backend).expectedKeys(keyCount).build();
        byte[] value = new byte[100];
        try (BitCask db = BitCask.open(dir, options)) {
            for (int i = 0; i < keyCount; i++) {
                value[i % 100] = (byte) i;
                db.put(Workload.decimalKey(i), value);
            }
        }
        if ("scan".equals(mode)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".hint"))::iterator) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Opens the store and returns its key count (so the open cannot be optimised away). */
    @Benchmark
    public long open() {
        opened = BitCask.open(dir, BitCaskOptions.builder().backend(backend).readOnly(true).build());
        return opened.size();
    }

    /** Closes the store opened by the measured invocation, outside the measurement. */
    @TearDown(Level.Invocation)
    public void closeStore() {
        if (opened != null) {
            opened.close();
            opened = null;
        }
    }

    /** Removes the store. */
    @TearDown(Level.Trial)
    public void cleanup() {
        StoreDirs.delete(dir);
    }
}
