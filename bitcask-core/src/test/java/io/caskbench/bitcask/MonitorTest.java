package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The store's object is the caller's: a caller that locks it must not stall the store. */
class MonitorTest {

    @Test
    void aCallerHoldingTheStoresMonitorStallsNoCall(@TempDir Path dir) throws Exception {
        try (BitCask db = BitCask.open(dir, TestOptions.with(Backend.MAPPED, 64 << 10))) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (db) {
                    held.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            holder.start();
            held.await();
            try {
                // Generous: the calls take milliseconds; only a call blocked on the monitor takes this long.
                assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                    for (int i = 0; i < 20; i++) {
                        db.put("k" + (i % 4), new byte[20 << 10]); // rolls over: the hint writer starts
                    }
                    db.merge();
                    db.sync();
                    assertThat(db.stats().segmentCount()).isPositive();
                });
            } finally {
                release.countDown();
                holder.join();
            }
        }
    }
}
