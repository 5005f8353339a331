package io.caskbench.bitcask;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bitcask.events.EventSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No virtual thread pins its carrier on the store's paths (JDK 21 and newer): 200 virtual threads put
 * under {@code ALWAYS} (group commit: parked writers, a forcing leader), get, and call {@code sync()}
 * beside them, while a recording of the store's own events runs, and a JFR recording of every
 * {@code jdk.VirtualThreadPinned} (threshold zero) may hold none with a frame of the store on its stack.
 * A first round on another store loads and initializes every class first: a pin while a class loads is
 * the JDK's, once per class, not the store's path.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadPinningTest {

    private static final String PINNED = "jdk.VirtualThreadPinned";
    private static final int THREADS = 200;
    private static final int PUTS = 20;
    /** This test's own frames, which are on every virtual thread's stack. */
    private static final String TEST = VirtualThreadPinningTest.class.getName();

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"MAPPED", "FILE_CHANNEL"})
    void putsGetsAndSyncsOnVirtualThreadsPinNoCarrier(Backend backend, @TempDir Path dir) throws Exception {
        round(dir.resolve("warm"), backend);

        List<RecordedEvent> pins;
        try (Recording pinned = new Recording(); Recording store = new Recording(EventSettings.over("default"))) {
            pinned.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            store.start();
            pinned.start();
            round(dir.resolve("measured"), backend);
            pinned.stop();
            Path file = dir.resolve("pins.jfr");
            pinned.dump(file);
            // The file holds the other recording's events too.
            pins = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(PINNED)).toList();
        }
        List<String> stores = pins.stream().filter(VirtualThreadPinningTest::onStorePath)
                .map(VirtualThreadPinningTest::describe).toList();
        assertThat(stores).as("pins with the store on the stack").isEmpty();
    }

    /** Opens a store, runs the threads' puts, gets and syncs on it, and closes it. */
    private static void round(Path dir, Backend backend) throws Exception {
        ExecutorService threads = virtualThreads();
        try (BitCask db = BitCask.open(dir, BitCaskOptions.builder().backend(backend).syncPolicy(SyncPolicy.ALWAYS)
                .segmentSize(1L << 20).autoMerge(false).build())) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < PUTS; i++) {
                        byte[] key = ("k" + thread + "-" + i).getBytes(StandardCharsets.UTF_8);
                        db.put(key, key);
                        assertThat(db.get(key)).isEqualTo(key);
                        if (i % 5 == 0) {
                            db.sync();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(1, TimeUnit.MINUTES)).as("the virtual threads ended").isTrue();
        }
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, by reflection: the tests compile for Java 17. */
    private static ExecutorService virtualThreads() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private static boolean onStorePath(RecordedEvent e) {
        return e.getStackTrace() != null && e.getStackTrace().getFrames().stream()
                .map(f -> f.getMethod().getType().getName())
                .anyMatch(type -> type.startsWith("io.caskbench.bitcask.") && !type.startsWith(TEST));
    }

    private static String describe(RecordedEvent e) {
        return e.getDuration() + " at " + e.getStackTrace().getFrames().stream().limit(12)
                .map(VirtualThreadPinningTest::frame).collect(Collectors.joining(" <- "));
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber();
    }
}
