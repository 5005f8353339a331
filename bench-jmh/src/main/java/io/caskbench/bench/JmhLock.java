package io.caskbench.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * JMH's machine-wide lock ({@code jmh.lock} in the temporary directory), looked at before a run starts:
 * JMH refuses to run while another JMH process holds it, but only once a benchmark is about to start,
 * and then with two stack traces and no row. The runner asks first and says in one line who holds it
 * and what to do.
 */
final class JmhLock {

    /** JMH's lock file: {@code jmh.lock} in {@code java.io.tmpdir}, where JMH 1.37 puts it. */
    static Path file() {
        return Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
    }

    private JmhLock() {
    }

    /**
     * Why a run cannot start now, or empty when the lock at {@code lock} is free (or the run was told to
     * ignore it with {@code -Djmh.ignoreLock=true}). The lock is let go again at once: JMH takes it itself.
     */
    static Optional<String> heldElsewhere(Path lock, boolean ignored) {
        if (ignored) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock taken = ch.tryLock();
            if (taken != null) {
                taken.release();
                return Optional.empty();
            }
        } catch (OverlappingFileLockException e) {
            return Optional.empty(); // this JVM holds it: a run inside a run, which JMH itself allows
        } catch (IOException e) {
            return Optional.empty(); // JMH will say what is wrong with the file
        }
        String holder = holder(lock).map(pid -> "process " + pid + describe(pid)).orElse("another process");
        return Optional.of("another JMH run holds " + lock + " (" + holder + "): wait for it to end, or stop it;"
                + " -Djmh.ignoreLock=true runs anyway, and both runs' figures suffer");
    }

    /** The pid that holds a lock on {@code lock}, from Linux's {@code /proc/locks}; empty elsewhere. */
    static Optional<Long> holder(Path lock) {
        try {
            Object inode = Files.getAttribute(lock, "unix:ino");
            for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
                // "1: POSIX  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF": pid, then major:minor:inode
                String[] f = line.trim().split("\\s+");
                if (f.length > 5 && f[5].endsWith(":" + inode)) {
                    return Optional.of(Long.parseLong(f[4]));
                }
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // not Linux, or no unix view: the message names no pid
        }
        return Optional.empty();
    }

    private static String describe(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().commandLine())
                .map(cmd -> ": " + (cmd.length() > 120 ? cmd.substring(0, 117) + "..." : cmd)).orElse("");
    }
}
