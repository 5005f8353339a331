package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Threading: static helpers, safe everywhere.
 *
 * <p>The whole-file and directory operations behind {@link SegmentBackend}'s default methods. Each
 * one either completes or throws {@link BitCaskException}; none swallows an I/O error. Each runs
 * with the caller's interrupt flag set aside (and set again after): an interrupt would close the
 * channel half-way through, and the store must not fail because a caller interrupted its thread. The
 * forces, reads and atomic writes, which may run twice, run again when an interrupt came during them.
 */
final class DurableFiles {

    /** Windows cannot open a directory as a channel; everywhere else a failed directory force is an error. */
    private static final boolean DIRECTORY_FORCE_SUPPORTED =
            !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private DurableFiles() {
    }

    /** A file operation that may throw {@link IOException}. */
    @FunctionalInterface
    private interface FileAction<T> {
        T run() throws IOException;
    }

    private static <T> T uninterrupted(FileAction<T> action) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            return action.run();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@link #uninterrupted} for an action that may run twice: one that an interrupt reached midway (it
     * closes the channel under it, the close interrupting the automatic merge's force, say) runs again on
     * a fresh channel, and the interrupt is kept for later.
     */
    private static <T> T idempotent(FileAction<T> action) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return uninterrupted(action);
                } catch (ClosedByInterruptException midway) {
                    interrupted |= Thread.interrupted();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static byte[] read(Path file) {
        try {
            return idempotent(() -> Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new BitCaskException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    static void writeAtomically(Path file, byte[] content) {
        Path tmp = SegmentFiles.tempFile(file);
        try {
            idempotent(() -> {
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer b = ByteBuffer.wrap(content);
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                    ch.force(true);
                }
                return null;
            });
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a *.tmp file is debris that the next open removes
            }
            throw new BitCaskException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    static void rename(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new BitCaskException("cannot rename " + from + " to " + to + ": " + e.getMessage(), e);
        }
    }

    static SpaceReport space(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            return new SpaceReport(store.getTotalSpace(), store.getUsableSpace());
        } catch (IOException e) {
            throw new BitCaskException("cannot read the free space of " + dir + ": " + e.getMessage(), e);
        }
    }

    static boolean delete(Path file) {
        try {
            return Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new BitCaskException("cannot delete " + file + ": " + e.getMessage(), e);
        }
    }

    static void linkOrCopy(Path src, Path dst) {
        try {
            try {
                Files.createLink(dst, src);
                return;
            } catch (FileAlreadyExistsException e) {
                throw e;
            } catch (IOException | UnsupportedOperationException linkRefused) {
                // no hard links on this file system, or across two: copy instead
            }
            Files.copy(src, dst);
            force(dst);
        } catch (IOException e) {
            throw new BitCaskException("cannot copy " + src + " to " + dst + ": " + e.getMessage(), e);
        }
    }

    static void copyPrefix(SegmentReader src, long length, Path dst) {
        try {
            uninterrupted(() -> {
                try (FileChannel ch = FileChannel.open(dst, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    byte[] buf = new byte[(int) Math.min(1 << 20, Math.max(1, length))];
                    for (long p = 0; p < length; ) {
                        int n = (int) Math.min(buf.length, length - p);
                        src.read(p, buf, 0, n);
                        ByteBuffer b = ByteBuffer.wrap(buf, 0, n);
                        while (b.hasRemaining()) {
                            ch.write(b);
                        }
                        p += n;
                    }
                    ch.force(true);
                }
                return null;
            });
        } catch (IOException e) {
            throw new BitCaskException("cannot copy " + length + " bytes into " + dst + ": " + e.getMessage(), e);
        }
    }

    static void force(Path file) {
        try {
            forceOpened(file);
        } catch (IOException e) {
            throw new BitCaskException("fsync failed on " + file + ": " + e.getMessage(), e);
        }
    }

    static void forceDirectory(Path dir) {
        if (!DIRECTORY_FORCE_SUPPORTED) {
            return;
        }
        try {
            forceOpened(dir);
        } catch (IOException e) {
            throw new BitCaskException("fsync of directory " + dir + " failed: " + e.getMessage(), e);
        }
    }

    private static void forceOpened(Path path) throws IOException {
        idempotent(() -> {
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                ch.force(true);
            }
            return null;
        });
    }
}
