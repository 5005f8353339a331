package io.caskbench.shm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * JMH's machine-wide lock ({@code java.io.tmpdir/jmh.lock}), which JMH itself only tries once and then
 * gives up on. On a machine shared with other benchmark runs, {@link ShmMain} instead waits for it and
 * holds it while it times the C anchors and the messaging, so no other JMH run overlaps them either.
 */
final class JmhLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private JmhLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Waits up to {@code max} for the lock. Returns null (with a warning) if it stays taken, so the run
     * goes on rather than never happening.
     */
    static JmhLock await(Duration max, PrintStream log) throws IOException {
        if (Boolean.getBoolean("jmh.ignoreLock")) {
            return null;
        }
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long deadline = System.nanoTime() + max.toNanos();
        boolean told = false;
        while (true) {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return new JmhLock(channel, lock);
            }
            if (System.nanoTime() > deadline) {
                channel.close();
                log.println("bench-shm: WARNING another JMH run still holds " + file + "; going on anyway");
                return null;
            }
            if (!told) {
                log.println("bench-shm: another JMH run holds " + file + "; waiting up to " + max.toMinutes() + " min");
                told = true;
            }
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                channel.close();
                throw new IOException("interrupted waiting for " + file, e);
            }
        }
    }

    /** Releases the lock so JMH can take it. */
    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
