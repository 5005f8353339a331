package io.caskbench.bench.store.sustained;

import io.caskbench.bench.openloop.OperationMix;
import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bench.store.overwrite.Amplification;
import io.caskbench.bench.store.overwrite.FullSpeedIntervals;
import io.caskbench.bench.store.overwrite.IntervalLoad;
import io.caskbench.bench.store.overwrite.IntervalSample;
import io.caskbench.bench.store.overwrite.OpenLoopIntervals;
import io.caskbench.bench.store.overwrite.OverwriteOps;
import io.caskbench.bench.store.overwrite.OverwriteProfiler;
import io.caskbench.bench.store.overwrite.OverwriteRecorder;
import io.caskbench.bench.store.overwrite.OverwriteStore;
import io.caskbench.bench.store.overwrite.OverwriteSummary;
import io.caskbench.bench.store.overwrite.OverwriteTarget;
import io.caskbench.bench.store.overwrite.ProcIo;
import io.caskbench.bench.store.overwrite.Skew;
import io.caskbench.bench.store.overwrite.TimeSeriesWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Why: what does a sustained overwrite of a fixed key space do, over many merges or compactions, to disk
 * space, to the bytes written to the device and to the foreground? Each fork opens a fresh store, writes
 * every one of {@code keyCount} keys once (16-byte keys, {@code valueSize}-byte random values), then for
 * {@code seconds} overwrites keys drawn with {@code skew}, 80% puts and 20% gets, from {@code threads}
 * threads: at {@code rate} operations per second, open loop, or at full speed when {@code rate} is 0.
 *
 * <p>Every {@code intervalMillis} it records a line of the time series
 * ({@code overwrite-<store>-<valueSize>-<skew>-<rate>-<pid>.csv} in the results folder): throughput, put
 * and get percentiles, disk bytes over live bytes, device bytes over application bytes, merges or
 * compactions. The summary reaches JMH's results through {@link OverwriteProfiler}; JMH's own score is the
 * run's wall time and is no figure.
 *
 * <p>Must not measure by accident: the fill (outside the run, but its garbage-free store is where the run
 * starts, so the first merges come from the run's own overwrites), the {@code du} between intervals (the
 * load pauses for it), key formatting beyond a few digit stores. It does measure the store's own deferred
 * work: merges and compactions run in the store's threads during the run, as they would in service.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class SustainedOverwrite extends StoreBenchmark {

    /** Share of puts among the operations. */
    static final double PUT_SHARE = 0.8;

    /** The store and its settings. */
    @Param({"BITCASK_DEFAULT", "BITCASK_TUNED", "ROCKSDB_DEFAULT", "ROCKSDB_TUNED"})
    public OverwriteStore store;

    /** Bytes of each value. */
    @Param({"100", "1024"})
    public int valueSize;

    /** How keys are drawn. */
    @Param({"UNIFORM", "ZIPFIAN"})
    public Skew skew;

    /** Operations per second asked of all threads, or 0 for full speed (closed loop). */
    @Param({"20000", "0"})
    public int rate;

    /** Distinct keys. */
    @Param("2000000")
    public int keyCount;

    /** Length of the measured run. */
    @Param("600")
    public int seconds;

    /** Length of one interval of the time series. */
    @Param("1000")
    public int intervalMillis;

    /** Worker threads. */
    @Param("4")
    public int threads;

    private Path dir;
    private OverwriteTarget target;
    private OverwriteOps ops;

    /** Creates the state; JMH fills it in {@link #fill}. */
    public SustainedOverwrite() {
    }

    /** Opens a fresh store and writes every key once. */
    @Setup(Level.Trial)
    public void fill() {
        dir = StoreDirs.create(store.bitcask() ? StoreKind.BITCASK_MAPPED : StoreKind.ROCKSDB);
        target = store.open(dir, keyCount);
        ops = new OverwriteOps(target, keyCount, skew, valueSize, threads, 42);
        ops.fill(keyCount);
    }

    /** Fails unless the profiler that reports the figures runs in this JVM. */
    @Setup(Level.Iteration)
    public void requireProfiler() {
        OverwriteProfiler.requireAttached();
    }

    /** Closes the store and deletes its folder. */
    @TearDown(Level.Trial)
    public void close() {
        if (target != null) {
            target.close();
        }
        StoreDirs.delete(dir);
    }

    /** The run: {@code seconds} of overwrites, recorded interval by interval. */
    @Benchmark
    public void overwrite(Blackhole bh) {
        OperationMix mix = OperationMix.withPutShare(PUT_SHARE);
        IntervalLoad load = rate > 0 ? new OpenLoopIntervals(threads, rate, mix, ops)
                : new FullSpeedIntervals(threads, mix, ops);
        int recordBytes = OverwriteOps.KEY_BYTES + valueSize;
        OverwriteRecorder recorder = new OverwriteRecorder(target, load,
                Amplification.liveBytes(keyCount, OverwriteOps.KEY_BYTES, valueSize), recordBytes, ProcIo::writeBytes);
        Duration interval = Duration.ofMillis(intervalMillis);
        int count = Math.max(1, (int) (seconds * 1000L / intervalMillis));
        List<IntervalSample> samples;
        try (TimeSeriesWriter out = new TimeSeriesWriter(seriesFile())) {
            samples = recorder.run(count, interval, out);
        }
        OverwriteProfiler.publish(OverwriteSummary.of(samples, recorder.puts(), recorder.gets(), rate,
                target.compactionInputBound(), recorder.unfinished(), load.harness().orElse(null)));
        bh.consume(recorder.sink());
    }

    /** This fork's time-series file in the results folder the runner hands its forks. */
    private Path seriesFile() {
        Path results = Path.of(System.getProperty("caskbench.results", "results"));
        return results.resolve(seriesName(store, valueSize, skew, rate, ProcessHandle.current().pid()));
    }

    /** The file name of one fork's time series; bench-report parses it back. */
    static String seriesName(OverwriteStore store, int valueSize, Skew skew, int rate, long pid) {
        return String.format(Locale.ROOT, "overwrite-%s-%d-%s-%s-%d.csv", store.name().toLowerCase(Locale.ROOT),
                valueSize, skew.name().toLowerCase(Locale.ROOT), rate > 0 ? Integer.toString(rate) : "full", pid);
    }
}
