package io.caskbench.bitcask.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Copies into a mapped segment finish in any order: a force made while an earlier copy is still
 * under way must not mark that copy's range as forced, so the next force covers it.
 */
class MappedSegmentCopiesTest {

    @TempDir
    Path tmp;

    /** A mapping in heap memory that records each force and can hold one copy in the middle. */
    private static final class HeldMapping implements MappedSegment.Mapping {
        final byte[] bytes;
        final List<long[]> forces = new ArrayList<>();
        final CountDownLatch copying = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile long holdAt = -1;

        HeldMapping(long size) {
            bytes = new byte[(int) size];
        }

        @Override
        public void get(long position, byte[] dst, int off, int len) {
            System.arraycopy(bytes, (int) position, dst, off, len);
        }

        @Override
        public void put(long position, byte[] src, int off, int len) {
            if (position == holdAt) {
                copying.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            System.arraycopy(src, off, bytes, (int) position, len);
        }

        @Override
        public synchronized void force(long position, long length) {
            forces.add(new long[]{position, position + length});
        }

        @Override
        public void unmap() {
        }

        synchronized boolean forcedOver(long from, long to) {
            return forces.stream().anyMatch(f -> f[0] <= from && f[1] >= to);
        }

        synchronized List<long[]> forcesSince(int n) {
            return new ArrayList<>(forces.subList(n, forces.size()));
        }
    }

    @Test
    void aForceDuringAnEarlierCopyLeavesItForTheNext() throws Exception {
        HeldMapping[] held = new HeldMapping[1];
        MappedSegment seg = new MappedSegment(tmp.resolve("1.data"), true, 1 << 16, (ch, mode, size) -> {
            held[0] = new HeldMapping(size);
            return held[0];
        });
        try {
            HeldMapping m = held[0];
            seg.write(0, new byte[64], 0, 64);
            seg.force();
            m.holdAt = 100;
            Thread early = new Thread(() -> seg.write(100, new byte[50], 0, 50));
            early.start();
            assertThat(m.copying.await(30, TimeUnit.SECONDS)).isTrue();
            seg.write(150, new byte[50], 0, 50); // a later range, finished first
            int before = m.forcesSince(0).size();
            seg.force(); // while [100, 150) is still being copied
            m.release.countDown();
            early.join();
            seg.force();
            List<long[]> after = m.forcesSince(before);
            assertThat(after.stream().anyMatch(f -> f[0] <= 100 && f[1] >= 150))
                    .as("a force after the early copy finished covers its range").isTrue();
            assertThat(m.forcedOver(150, 200)).isTrue();
        } finally {
            seg.close();
        }
    }
}
