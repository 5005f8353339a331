package io.caskbench.bitcask.io;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class MappedBackendTest extends SegmentBackendContract {
    @Override
    SegmentBackend backend() {
        return new MappedBackend();
    }

    @Test
    void sealedAndReadOnlySegmentsHoldNoDescriptor() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "skipped: counting descriptors needs /proc/self/fd");
        Path f = dir.resolve("s");
        try (SegmentWriter w = backend().openWritable(f, 1 << 20)) {
            w.write(0, new byte[100], 0, 100);
            assertThat(descriptorsOf(f)).isEqualTo(1);
            w.truncate(100);
            w.sealed();
            assertThat(descriptorsOf(f)).isZero();
            w.force();
            assertThat(descriptorsOf(f)).isZero();
            try (SegmentReader r = backend().openReadOnly(f)) {
                assertThat(descriptorsOf(f)).isZero();
                assertThat(r.size()).isEqualTo(100);
            }
        }
    }

    @Test
    void aWriteNearTheAllocatedEndGrowsTheFileAheadOfTheNextWrites() throws IOException {
        int chunk = MappedSegment.ALLOCATION_CHUNK;
        try (SegmentWriter w = backend().openWritable(dir.resolve("s"), 4L * chunk)) {
            w.write(0, new byte[100], 0, 100);
            assertThat(readable(w)).isEqualTo(chunk);
            w.write(chunk / 2 - 100, new byte[100], 0, 100); // half a chunk from the end: no growth yet
            assertThat(readable(w)).isEqualTo(chunk);
            w.write(chunk / 2 + 100, new byte[100], 0, 100); // within half a chunk: the next chunk now
            assertThat(readable(w)).isEqualTo(2L * chunk);
            w.write(2L * chunk - 10, new byte[100], 0, 100); // past the end: grown before the copy
            assertThat(readable(w)).isEqualTo(3L * chunk);
        }
    }

    /** The allocated length, found by where a one-byte read stops being allowed (reads are bounds-checked). */
    private static long readable(SegmentWriter w) {
        byte[] one = new byte[1];
        long n = 0;
        for (long step = 1L << 30; step > 0; step >>= 1) {
            try {
                w.read(n + step - 1, one, 0, 1);
                n += step;
            } catch (RuntimeException outside) {
                // not allocated that far
            }
        }
        return n;
    }

    private static long descriptorsOf(Path file) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file);
                } catch (IOException | UnsupportedOperationException gone) {
                    return false;
                }
            }).count();
        }
    }
}
