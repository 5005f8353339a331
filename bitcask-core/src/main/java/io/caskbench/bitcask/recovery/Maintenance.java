package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.ProgressListener;
import io.caskbench.bitcask.RepairReport;
import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.io.StoreLock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Threading: static; each call runs on its caller's thread, and verify reads segments on threads
 * of its own.
 *
 * <p>What the facade's {@code isStore}, {@code verify} and {@code repair} do with a store directory
 * that need not be open: check the arguments, then hand over to {@link StoreVerifier} or, holding
 * the store's lock, to {@link StoreRepairer}.
 */
public final class Maintenance {

    private Maintenance() {
    }

    /** True when {@code dir} is a directory that holds a data, hint or lock file. */
    public static boolean isStore(Path dir) {
        return StoreVerifier.isStore(absolute(dir));
    }

    /**
     * Checks the store in {@code dir} as deep as {@code depth} says, and notes in the report whether
     * a writer holds it.
     *
     * @throws BitCaskException when {@code dir} holds no store or cannot be read
     */
    public static VerifyReport verify(Path dir, VerifyReport.Depth depth, ProgressListener progress) {
        Path absolute = absolute(dir);
        return StoreVerifier.verify(absolute, Objects.requireNonNull(depth, "depth"),
                Objects.requireNonNull(progress, "progress"), Files.isDirectory(absolute) && StoreLock.heldByWriter(absolute));
    }

    /**
     * Plans a repair of the store in {@code dir} and, when {@code apply}, carries it out after
     * copying the files it changes into {@code backupDir}; holds the store's lock meanwhile.
     *
     * @throws BitCaskException when {@code dir} holds no store, another store holds it, or a file
     *                          operation fails
     */
    public static RepairReport repair(Path dir, boolean apply, Path backupDir, ProgressListener progress) {
        Path absolute = absolute(dir);
        Objects.requireNonNull(progress, "progress");
        if (apply) {
            Objects.requireNonNull(backupDir, "backupDir");
        }
        if (!StoreVerifier.isStore(absolute)) {
            throw new BitCaskException(absolute + " holds no BitCask store"); // before the lock, which would create a LOCK file
        }
        StoreLock lock = StoreLock.acquire(absolute);
        try {
            return StoreRepairer.repair(absolute, apply, backupDir, progress);
        } finally {
            lock.release();
        }
    }

    private static Path absolute(Path dir) {
        return Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
    }
}
