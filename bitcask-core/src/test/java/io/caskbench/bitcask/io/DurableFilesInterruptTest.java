package io.caskbench.bitcask.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An interrupt that reaches a thread in the middle of a directory or file force is no failure: the
 * interrupt closes the channel under the force, and the force is made again on a fresh one, the interrupt
 * kept for later. Close interrupts the automatic merge's thread, which may be forcing the directory; a
 * force that failed there would fail the store, and close would force nothing more.
 */
class DurableFilesInterruptTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void forcesInterruptedMidwayAreMadeAgainAndTheInterruptIsKept() throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[4096]);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean done = new AtomicBoolean();
        boolean[] keptInterrupt = new boolean[1];
        Thread forcing = new Thread(() -> {
            try {
                for (int i = 0; i < 2_000; i++) {
                    DurableFiles.forceDirectory(dir);
                    DurableFiles.force(file);
                }
                keptInterrupt[0] = Thread.currentThread().isInterrupted();
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.set(true);
            }
        });
        forcing.start();
        while (!done.get()) {
            forcing.interrupt(); // as often as this thread runs: many land inside a force
            Thread.yield();
        }
        forcing.join();
        assertThat(failure.get()).isNull();
        assertThat(keptInterrupt[0]).as("the interrupt is kept for the caller").isTrue();
    }
}
