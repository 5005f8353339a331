package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.StoreFiles;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Three writers overwrite a fixed key space on the smallest segments the options allow, while the
 * automatic merge runs as often as it may: a mapped store holds a few file descriptors however many
 * segments there are, and once the writers stop, merges bring the segment count under the figure
 * the usage guide states. The work is a fixed number of puts, so the test ends on any machine.
 */
class DescriptorBoundTest {

    private static final int SEGMENT = (int) BitCaskOptions.MIN_SEGMENT_SIZE;
    private static final int KEYS = 2_000;
    private static final int VALUE = 1_000;
    private static final int PUTS_PER_WRITER = 20_000;
    /** The figure the usage guide states for a mapped store beyond open. */
    private static final int MAPPED_DESCRIPTORS = 16;

    @TempDir
    Path dir;

    static Stream<Backend> mapped() {
        return Backends.available().stream().filter(b -> b != Backend.FILE_CHANNEL);
    }

    @ParameterizedTest
    @MethodSource("mapped")
    @Timeout(120)
    void aMappedStoreUnderSustainedOverwritesHoldsAFewDescriptorsAndMergesBackUnderTheBound(Backend backend) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "skipped: counting descriptors needs /proc/self/fd");
        BitCaskOptions o = BitCaskOptions.builder().backend(backend).segmentSize(SEGMENT).autoMerge(true)
                .mergeCheckInterval(Duration.ofMillis(10)).build();
        AtomicInteger mostDescriptors = new AtomicInteger();
        AtomicInteger mostSegments = new AtomicInteger();
        try (BitCask db = BitCask.open(dir, o)) {
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread sampler = new Thread(() -> {
                while (writing.get()) {
                    try {
                        mostDescriptors.accumulateAndGet(descriptorsUnder(dir), Math::max);
                        mostSegments.accumulateAndGet(dataFiles(dir), Math::max);
                        Thread.sleep(5);
                    } catch (IOException | InterruptedException e) {
                        failure.compareAndSet(null, e);
                        return;
                    }
                }
            });
            sampler.start();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    byte[] value = new byte[VALUE];
                    try {
                        for (int i = 0; i < PUTS_PER_WRITER; i++) {
                            Arrays.fill(value, (byte) (writer + i));
                            db.put("k" + ((i * 7 + writer * 13) % KEYS), value);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                writers.add(t);
                t.start();
            }
            for (Thread t : writers) {
                t.join();
            }
            writing.set(false);
            sampler.join();
            assertThat(failure.get()).isNull();

            long live = db.stats().liveBytes();
            long bound = segmentBound(live, o);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (db.stats().segmentCount() > bound && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(db.stats().segmentCount()).as("segments once merges caught up; at most %d during the run", mostSegments.get())
                    .isLessThanOrEqualTo((int) bound);
        }
        assertThat(mostSegments.get()).as("segment files at some moment: enough that one descriptor each would show").isGreaterThan(MAPPED_DESCRIPTORS * 2);
        assertThat(mostDescriptors.get()).as("descriptors into the store at any moment").isLessThanOrEqualTo(MAPPED_DESCRIPTORS);
    }

    /** The usage guide's figure: live bytes over a segment's share of live data at the trigger, plus four: the active segment, the last output of a merge, the segment a merge sealed, and rounding. */
    private static long segmentBound(long live, BitCaskOptions o) {
        return (long) Math.ceil(live / (o.segmentSize() * (1 - o.mergeDeadRatio()))) + 4;
    }

    private static int descriptorsUnder(Path dir) throws IOException {
        int n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).startsWith(dir)) {
                        n++;
                    }
                } catch (IOException | UnsupportedOperationException gone) {
                    // closed between the listing and the read
                }
            }
        }
        return n;
    }

    private static int dataFiles(Path dir) throws IOException {
        return StoreFiles.dataFiles(dir).size();
    }
}
