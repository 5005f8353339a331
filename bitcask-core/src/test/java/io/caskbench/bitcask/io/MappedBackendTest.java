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
