package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskLockedException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Threading: acquired by open or repair, released once by close, a failed open or the end of the
 * repair; the set of held directories is concurrent.
 *
 * <p>The exclusive lock on a store directory: an OS file lock on {@code LOCK}, which stops other
 * processes, plus a set of directories held by this JVM, which gives a clear error to a second
 * open in the same process. The file records the holder's pid for the error message.
 */
public final class StoreLock {

    /** Directories held by stores of this JVM, canonical; any thread. */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    /** Final, safe everywhere. */
    private final Path dir;
    /** Final; closed once by release. */
    private final FileChannel channel;
    /** Final; released once by release. */
    private final FileLock lock;

    private StoreLock(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code dir}, creating its lock file if needed.
     *
     * @throws BitCaskLockedException when a store, in this process or another, holds it
     * @throws BitCaskException       when the lock file cannot be opened or written
     */
    public static StoreLock acquire(Path dir) {
        Path key = canonical(dir);
        if (!HELD.add(key)) {
            throw new BitCaskLockedException(dir, "already open in this process");
        }
        Path file = dir.resolve(SegmentFiles.LOCK_FILE);
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                String holder = readHolder(file);
                ch.close();
                HELD.remove(key);
                throw new BitCaskLockedException(dir, holder.isEmpty() ? "held by another process" : "held by pid " + holder);
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)), 0);
            return new StoreLock(key, ch, lock);
        } catch (IOException e) {
            HELD.remove(key);
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
            throw new BitCaskException("cannot lock " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * True when a writer holds {@code dir}: a store of this process, or a process with the OS lock
     * on its lock file. Never opens the lock file of a directory this process holds, since closing
     * any channel of a file drops every POSIX lock the process has on it.
     */
    public static boolean heldByWriter(Path dir) {
        if (HELD.contains(canonical(dir))) {
            return true;
        }
        Path file = dir.resolve(SegmentFiles.LOCK_FILE);
        if (!Files.exists(file)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileLock probe = ch.tryLock(0, Long.MAX_VALUE, true);
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false; // an unreadable lock file: nothing can be said about a writer
        }
    }

    private static String readHolder(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return "";
        }
    }

    private static Path canonical(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir.toAbsolutePath().normalize();
        }
    }

    /** Releases the lock; once only. */
    public void release() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new BitCaskException("cannot release the lock of " + dir + ": " + e.getMessage(), e);
        } finally {
            HELD.remove(dir);
        }
    }
}
