package io.caskbench.bitcask.io;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>What a file system reports of its size and free space, as {@link SegmentBackend#space} reads
 * it. A file system that reports no blocks at all (a FUSE mount that does not implement
 * {@code statfs}, such as LazyFS) says 0 for both: its free space is unknown, not zero, and a
 * caller must not treat it as a full disk.
 *
 * @param total  bytes the file system holds in all, 0 when it reports no blocks
 * @param usable bytes it has free for this process
 */
public record SpaceReport(long total, long usable) {

    /** True when the file system reports no blocks at all, so {@link #usable} says nothing. */
    public boolean unknown() {
        return total <= 0;
    }
}
