package io.caskbench.bitcask.io;

import java.nio.file.Path;

/**
 * Threading: an implementation is called from any thread at once.
 *
 * <p>Every file operation the store makes: opening segment files, and the few whole-file and
 * directory operations around them (small files written atomically, renames, deletes, links,
 * directory forces). Implementations differ only in how segment bytes move between the file and
 * the heap; the record layout and every decision about it live above this interface.
 *
 * <p>The store never touches the file system except through this interface (and its lock file),
 * so a wrapper sees every call: tests use one to fail the k-th call, or to model a power loss that
 * keeps only what a force made durable. Every method throws
 * {@link io.caskbench.bitcask.BitCaskException} on an I/O failure.
 */
public interface SegmentBackend {

    /**
     * Opens (creating if absent) a file for appending records up to {@code capacity} bytes.
     * Existing content is kept. A file created here is durable only after
     * {@link #forceDirectory} of its directory.
     */
    SegmentWriter openWritable(Path file, long capacity);

    /** Opens an existing file for reading only. */
    SegmentReader openReadOnly(Path file);

    /**
     * The whole content of a small file, or null when it does not exist: {@code verify} reads hint
     * files so. Open reads them through {@link #openReadOnly}, a window at a time.
     */
    default byte[] readFile(Path file) {
        return DurableFiles.read(file);
    }

    /**
     * Writes a small file whole: into a temporary sibling, forced, then renamed over
     * {@code file}. Readers see the old content or the new, never a mix. The name is durable only
     * after {@link #forceDirectory}.
     */
    default void writeFile(Path file, byte[] content) {
        DurableFiles.writeAtomically(file, content);
    }

    /**
     * The size and free space of the file system holding {@code dir}: what a merge checks before it
     * copies. A file system that reports no blocks gives a total of 0 (see {@link SpaceReport#unknown}).
     */
    default SpaceReport space(Path dir) {
        return DurableFiles.space(dir);
    }

    /** Renames {@code from} to {@code to} atomically, replacing {@code to} if it exists. */
    default void rename(Path from, Path to) {
        DurableFiles.rename(from, to);
    }

    /** Deletes {@code file} if it exists; true when it did. */
    default boolean delete(Path file) {
        return DurableFiles.delete(file);
    }

    /**
     * Makes {@code dst} a copy of the complete file {@code src} that later changes to
     * {@code src} cannot reach: a hard link when the caller knows {@code src} is immutable and the
     * file system allows one, a forced copy otherwise.
     */
    default void linkOrCopy(Path src, Path dst) {
        DurableFiles.linkOrCopy(src, dst);
    }

    /** Forces the first {@code length} bytes of {@code src} into a new file {@code dst}. */
    default void copyPrefix(SegmentReader src, long length, Path dst) {
        DurableFiles.copyPrefix(src, length, dst);
    }

    /** Forces a file's content that was written through another handle (a sealed segment). */
    default void forceFile(Path file) {
        DurableFiles.force(file);
    }

    /** Forces a directory, so that names created, renamed or deleted in it survive a power loss. */
    default void forceDirectory(Path dir) {
        DurableFiles.forceDirectory(dir);
    }
}
