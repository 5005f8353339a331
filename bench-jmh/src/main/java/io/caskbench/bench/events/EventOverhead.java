package io.caskbench.bench.events;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.StoreBenchmark;
import io.caskbench.bench.store.fixture.StoreDirs;
import io.caskbench.bench.store.workload.Workload;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.events.EventSettings;
import java.nio.file.Path;
import java.util.SplittableRandom;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Why: do the store's JFR events cost anything when nobody records, and how much when someone does?
 * One thread gets and puts (overwrites) random keys of a store of {@code keyCount} keys with 100-byte
 * values, under three recordings, each in its own fork: {@code NONE} (JFR never started, so the
 * event classes are never instrumented: the cost is the guard alone), {@code JDK} (the JDK's default
 * settings: the store's rare events on, the slow-operation events off) and {@code BITCASK} (the
 * JDK's default with {@code bitcask.jfc} over it: every get and put is timed against a 10 ms
 * threshold, which none reaches). Compare {@code JDK} and {@code BITCASK} with {@code NONE}, row by
 * row. The recording starts in the trial's setup, as {@code -XX:StartFlightRecording} would before
 * {@code main}, with the settings file read from the store's jar; its disk writes run on JFR's own
 * threads, beside the measured one.
 *
 * <p>Must not measure by accident: key generation (the keys are made in setup and picked by a
 * cursor that strides through them), store growth past the page cache (puts overwrite the same
 * keys, so the store grows by the run's puts only, in 64 MiB segments), or the recording's start.
 */
@State(Scope.Benchmark)
public class EventOverhead extends StoreBenchmark {

    /** A stride that is odd, so the cursor visits every key before it repeats, and far from 1, so they are not read in order. */
    private static final int STRIDE = 40_503;

    /** What is recorded while the benchmark runs. */
    public enum RecordingKind {
        /** No recording: JFR never starts. */
        NONE,
        /** The JDK's default settings. */
        JDK,
        /** The JDK's default settings with {@code bitcask.jfc}: slow gets and puts armed. */
        BITCASK
    }

    /** The recording. */
    @Param({"NONE", "JDK", "BITCASK"})
    public RecordingKind recording;

    /** Segment backend. */
    @Param({"MAPPED", "FILE_CHANNEL"})
    public Backend backend;

    /** Keys in the store, a power of two (the cursor masks). */
    @Param("131072")
    public int keyCount;

    private Path dir;
    private BitCask db;
    private Recording rec;
    private byte[][] keys;
    private byte[] value;
    private int cursor;

    /** Starts the recording, opens and fills the store. */
    @Setup(Level.Trial)
    public void open() throws Exception {
        if (recording == RecordingKind.JDK) {
            rec = new Recording(Configuration.getConfiguration("default"));
        } else if (recording == RecordingKind.BITCASK) {
            rec = new Recording(EventSettings.over("default"));
        }
        if (rec != null) {
            rec.setToDisk(true);
            rec.start();
        }
        dir = StoreDirs.create(StoreKind.of(backend));
        if (Integer.bitCount(keyCount) != 1) {
            throw new IllegalArgumentException("keyCount must be a power of two: " + keyCount);
        }
        db = BitCask.open(dir, BitCaskOptions.builder().backend(backend).expectedKeys(keyCount)
                .segmentSize(64L << 20).autoMerge(false).build());
        keys = new byte[keyCount][];
        SplittableRandom random = new SplittableRandom(11);
        value = new byte[100];
        random.nextBytes(value);
        for (int i = 0; i < keyCount; i++) {
            keys[i] = Workload.decimalKey(random.nextLong(10_000_000_000_000_000L));
            db.put(keys[i], value);
        }
    }

    /** Closes and deletes the store, then ends the recording without keeping it. */
    @TearDown(Level.Trial)
    public void close() {
        db.close();
        StoreDirs.delete(dir);
        if (rec != null) {
            rec.close();
        }
    }

    private byte[] next() {
        int c = cursor + STRIDE;
        cursor = c;
        return keys[c & (keyCount - 1)];
    }

    /** One get of a present key. */
    @Benchmark
    public void get(Blackhole bh) {
        bh.consume(db.get(next()));
    }

    /** One put that overwrites a key, not forced (sync policy NONE). */
    @Benchmark
    public void put() {
        db.put(next(), value);
    }
}
