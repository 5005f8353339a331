package io.caskbench.bitcask.io;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Threading: any thread; the changed flag is atomic.
 *
 * <p>The store's directory and the backend that reaches it, with what the directory itself needs
 * to be durable: names created, renamed or deleted in it since its last force are forced before a
 * write that depends on them is acknowledged.
 */
public final class StoreDirectory {

    /** Final, safe everywhere. */
    private final Path dir;
    /** Final, safe everywhere. */
    private final SegmentBackend backend;
    /** Names changed in {@code dir} since its last force; any thread. */
    private final AtomicBoolean changed = new AtomicBoolean();

    /** The store directory {@code dir}, reached through {@code backend}. */
    public StoreDirectory(Path dir, SegmentBackend backend) {
        this.dir = dir;
        this.backend = backend;
    }

    /** The directory. */
    public Path path() {
        return dir;
    }

    /** The backend files are opened, written and forced through. */
    public SegmentBackend backend() {
        return backend;
    }

    /** Notes that a name was created, renamed or deleted in the directory. */
    public void changed() {
        changed.set(true);
    }

    /** Forces the directory now. */
    public void force() {
        backend.forceDirectory(dir);
    }

    /** Forces the directory if a name changed in it since its last force; a failed force leaves it marked. */
    public void forceIfChanged() {
        if (changed.getAndSet(false)) {
            try {
                backend.forceDirectory(dir);
            } catch (RuntimeException e) {
                changed.set(true);
                throw e;
            }
        }
    }

    /** Deletes a data file and its hint file, the hint first so that no hint outlives its data. */
    public void deleteSegmentFiles(Path data) {
        String name = data.getFileName().toString();
        backend.delete(data.resolveSibling(name.substring(0, name.length() - SegmentFiles.DATA_SUFFIX.length()) + SegmentFiles.HINT_SUFFIX));
        backend.delete(data);
        changed();
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
