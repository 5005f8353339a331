package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The contract every {@link SegmentBackend} must meet; one subclass per backend. */
abstract class SegmentBackendContract {

    @TempDir
    Path dir;

    abstract SegmentBackend backend();

    /** False for a backend that cannot open a file larger than 2 GiB at all, such as a model of one in the heap. */
    boolean takesHugeFiles() {
        return true;
    }

    @Test
    void writtenBytesReadBackAtTheirPositions() {
        try (SegmentWriter w = backend().openWritable(dir.resolve("a"), 1 << 20)) {
            byte[] data = new byte[5000];
            new Random(1).nextBytes(data);
            w.write(0, data, 0, 1000);
            w.write(1000, data, 1000, 4000);
            byte[] back = new byte[5000];
            w.read(0, back, 0, 5000);
            assertThat(back).isEqualTo(data);
            byte[] mid = new byte[10];
            w.read(995, mid, 0, 10);
            assertThat(mid).containsExactly(Arrays.copyOfRange(data, 995, 1005));
        }
    }

    @Test
    void aSealedSegmentCutAndNeverForcedClosesWithItsNewLength() {
        Path f = dir.resolve("sealed");
        byte[] data = new byte[3000];
        new Random(3).nextBytes(data);
        SegmentWriter w = backend().openWritable(f, 1 << 20);
        w.write(0, data, 0, data.length);
        w.truncate(data.length);
        w.sealed();
        byte[] back = new byte[data.length];
        w.read(0, back, 0, back.length);
        assertThat(back).isEqualTo(data);
        w.close(); // forces the new length, through a descriptor opened again where the sealed segment gave its up
        try (SegmentReader r = backend().openReadOnly(f)) {
            assertThat(r.size()).isEqualTo(data.length);
        }
    }

    @Test
    void contentSurvivesCloseAndReopenReadOnly() {
        Path f = dir.resolve("b");
        byte[] data = new byte[70_000];
        new Random(2).nextBytes(data);
        try (SegmentWriter w = backend().openWritable(f, 1 << 20)) {
            w.write(0, data, 0, data.length);
            w.force();
            w.truncate(data.length);
        }
        try (SegmentReader r = backend().openReadOnly(f)) {
            assertThat(r.size()).isEqualTo(data.length);
            byte[] back = new byte[data.length];
            r.read(0, back, 0, back.length);
            assertThat(back).isEqualTo(data);
        }
    }

    @Test
    void readPastTheEndIsAnExceptionNotGarbage() {
        Path f = dir.resolve("c");
        try (SegmentWriter w = backend().openWritable(f, 1 << 20)) {
            w.write(0, new byte[100], 0, 100);
            w.truncate(100);
        }
        try (SegmentReader r = backend().openReadOnly(f)) {
            assertThatThrownBy(() -> r.read(90, new byte[20], 0, 20)).isInstanceOf(BitCaskException.class);
        }
    }

    @Test
    void truncateCutsTheFile() throws Exception {
        Path f = dir.resolve("d");
        try (SegmentWriter w = backend().openWritable(f, 1 << 20)) {
            w.write(0, new byte[4096], 0, 4096);
            w.truncate(1000);
        }
        assertThat(Files.size(f)).isEqualTo(1000);
    }

    @Test
    void reopenForWritingKeepsContent() {
        Path f = dir.resolve("e");
        try (SegmentWriter w = backend().openWritable(f, 1 << 20)) {
            w.write(0, new byte[]{1, 2, 3}, 0, 3);
            w.truncate(3);
        }
        try (SegmentWriter w = backend().openWritable(f, 1 << 20)) {
            w.write(3, new byte[]{4}, 0, 1);
            byte[] back = new byte[4];
            w.read(0, back, 0, 4);
            assertThat(back).containsExactly(1, 2, 3, 4);
        }
    }

    @Test
    void closeIsIdempotentAndThreadSafe() throws Exception {
        SegmentWriter w = backend().openWritable(dir.resolve("f"), 1 << 20);
        w.write(0, new byte[10], 0, 10);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    w.close();
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(errors).isEmpty();
        w.close();
        assertThatThrownBy(() -> w.read(0, new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.write(0, new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void manyOpenCloseCyclesDoNotPileUpMappingsOrHandles() {
        Path f = dir.resolve("g");
        for (int i = 0; i < 500; i++) {
            try (SegmentWriter w = backend().openWritable(f, 8 << 20)) {
                w.write(0, new byte[]{(byte) i}, 0, 1);
            }
        }
        try (SegmentReader r = backend().openReadOnly(f)) {
            byte[] b = new byte[1];
            r.read(0, b, 0, 1);
            assertThat(b[0]).isEqualTo((byte) 499);
        }
    }

    /**
     * A file larger than one mapping can hold (sparse, so it costs no disk) is refused by the mapped
     * backends and read by the others; either way, no file descriptor stays open after it.
     */
    @Test
    void anOpenThatFailsLeavesNoDescriptorOpen() throws Exception {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd to count descriptors");
        assumeTrue(takesHugeFiles(), "this backend cannot open a file of 2 GiB");
        Path f = dir.resolve("huge");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(Integer.MAX_VALUE + 1L);
        }
        long before = descriptors(fds);
        for (int i = 0; i < 50; i++) {
            try (SegmentReader r = backend().openReadOnly(f)) {
                assertThat(r.size()).isEqualTo(Integer.MAX_VALUE + 1L);
            } catch (BitCaskException refused) {
                assertThat(refused).hasMessageContaining("larger than a mapping can hold");
            }
        }
        assertThat(descriptors(fds)).as("open descriptors after 50 opens").isLessThan(before + 10);
    }

    private static long descriptors(Path fds) throws IOException {
        try (Stream<Path> list = Files.list(fds)) {
            return list.count();
        }
    }

    @Test
    void interruptOfAReaderDoesNotBreakTheSegmentForOthers() throws Exception {
        try (SegmentWriter w = backend().openWritable(dir.resolve("h"), 1 << 20)) {
            w.write(0, new byte[]{7, 8, 9}, 0, 3);
            Thread.currentThread().interrupt();
            byte[] b = new byte[3];
            try {
                w.read(0, b, 0, 3);
            } finally {
                assertThat(Thread.interrupted()).isTrue();
            }
            byte[] again = new byte[3];
            w.read(0, again, 0, 3);
            assertThat(again).containsExactly(7, 8, 9);
        }
    }
}
