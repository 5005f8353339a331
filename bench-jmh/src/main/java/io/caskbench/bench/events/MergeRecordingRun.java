package io.caskbench.bench.events;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.events.EventSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;

/**
 * Records a store through a merge, as an operator would with {@code bitcask.jfc}, and draws the recording
 * with {@link MergeTimeline}: one thread reads and one writes while the main thread merges. The slow-
 * operation events are recorded at a threshold of zero, so every get and put is in the recording.
 *
 * <pre>
 * java -cp bench-jmh/target/benchmarks.jar io.caskbench.bench.events.MergeRecordingRun docs/img/merge-recording.png
 * </pre>
 *
 * <p>An illustration of what the events show, not a measurement: the figures are those of whatever
 * machine ran it.
 */
public final class MergeRecordingRun {

    /** Final. */
    private final int keys;
    /** Milliseconds of load before and after the merge. Final. */
    private final long quietMillis;

    /** A run over {@code keys} keys with {@code quietMillis} of load before and after the merge. */
    MergeRecordingRun(int keys, long quietMillis) {
        this.keys = keys;
        this.quietMillis = quietMillis;
    }

    /** Writes the chart to {@code args[0]}, an {@code .svg} or {@code .png} file (default {@code docs/img/merge-recording.png}). */
    public static void main(String[] args) throws Exception {
        Path svg = Path.of(args.length > 0 ? args[0] : "docs/img/merge-recording.png");
        Path work = Files.createTempDirectory("merge-recording");
        try {
            MergeResult r = new MergeRecordingRun(200_000, 1000).run(work, svg);
            System.out.println("wrote " + svg + ": merged " + r.removedSegments().size() + " segments in " + r.millis() + " ms");
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * Fills a store in {@code work}, records it through a merge under load, and draws the recording at
     * {@code chart} ({@code .svg} or {@code .png}); the recording stays in {@code work} as {@code merge.jfr}.
     */
    MergeResult run(Path work, Path chart) throws IOException, InterruptedException {
        Path dir = work.resolve("store").toAbsolutePath();
        Path jfr = work.resolve("merge.jfr");
        Map<String, String> settings = EventSettings.over("default");
        settings.put("io.caskbench.bitcask.SlowGet#threshold", "0 ms");
        settings.put("io.caskbench.bitcask.SlowPut#threshold", "0 ms");
        settings.put("io.caskbench.bitcask.SlowGet#stackTrace", "false");
        settings.put("io.caskbench.bitcask.SlowPut#stackTrace", "false");
        MergeResult merged;
        try (Recording recording = new Recording(settings);
             BitCask db = BitCask.open(dir, BitCaskOptions.builder().segmentSize(4L << 20).autoMerge(false).build())) {
            byte[] value = new byte[100];
            for (int round = 0; round < 3; round++) { // two thirds of the records dead
                for (int i = 0; i < keys; i++) {
                    db.put(key(i), value);
                }
            }
            recording.start(); // after the fill: the chart shows the load and the merge
            merged = mergeUnderLoad(db, value);
            recording.stop();
            recording.dump(jfr);
        }
        MergeTimeline.write(MergeTimeline.read(jfr, dir.toString()),
                "A merge in a JFR recording: the slowest get and put every " + MergeTimeline.BUCKET_MILLIS + " ms", chart);
        return merged;
    }

    /** Merges while one thread reads and one writes, with {@code quietMillis} of that load before and after. */
    private MergeResult mergeUnderLoad(BitCask db, byte[] value) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(1);
            while (!stop.get()) {
                db.get(key(random.nextInt(keys)));
            }
        }, "reader");
        Thread writer = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(2);
            while (!stop.get()) {
                db.put(key(random.nextInt(keys)), value);
            }
        }, "writer");
        reader.start();
        writer.start();
        try {
            Thread.sleep(quietMillis); // load before the merge: what the chart compares it with
            MergeResult merged = db.merge();
            Thread.sleep(quietMillis);
            return merged;
        } finally {
            stop.set(true);
            reader.join();
            writer.join();
        }
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
