package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.MappedBackend;
import io.caskbench.bitcask.io.SpaceReport;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.segment.Segment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Threading: static helpers, safe everywhere.
 *
 * <p>The room a merge needs on the disk, checked before it seals or writes anything: the live bytes of
 * its inputs (what it copies, tombstones it keeps aside), an eighth more for their hint files, and
 * two allocation chunks, one for the segment its seal opens and one that an output allocates ahead of
 * its records. A merge that does not fit is refused with the figures, and the store stays as it was;
 * one that runs out of room anyway (it kept more tombstones than estimated, or another process took
 * the space) fails before its swap, and removes its outputs.
 *
 * <p>A file system that reports no blocks at all (a FUSE mount without {@code statfs}) says 0 bytes
 * free: that is free space unknown, not a full disk, so the merge goes on, with one WARN per
 * directory. Should the disk really fill up, the merge fails as above and the store loses nothing.
 */
public final class MergeHeadroom {

    private static final Logger LOG = LoggerFactory.getLogger(MergeHeadroom.class);

    /** Directories already warned of as reporting no blocks; any thread, atomically. One entry per such store directory. */
    private static final Set<Path> UNKNOWN_SPACE_WARNED = ConcurrentHashMap.newKeySet();

    private MergeHeadroom() {
    }

    /** Bytes a merge of {@code inputs}, in segments of {@code segmentSize} bytes, needs free. */
    public static long needed(List<Segment> inputs, long segmentSize) {
        long live = 0;
        for (Segment in : inputs) {
            live += Math.max(0, in.liveBytes());
        }
        return live + live / 8 + 2 * Math.min(segmentSize, MappedBackend.ALLOCATION_CHUNK);
    }

    /**
     * Throws when the disk of {@code dir} has less free than a merge of {@code inputs} needs; returns
     * when it has enough, or when its file system reports no blocks, so its free space is unknown.
     */
    public static void ensure(StoreDirectory dir, List<Segment> inputs, long segmentSize) {
        long need = needed(inputs, segmentSize);
        SpaceReport space = dir.backend().space(dir.path());
        if (space.unknown()) {
            if (UNKNOWN_SPACE_WARNED.add(dir.path())) {
                LOG.warn("{}: the file system reports no blocks (no statfs, as on some FUSE mounts), so its free space is unknown;"
                        + " merges go on without checking for the {} bytes they need, and one that runs out of space fails"
                        + " and leaves the store as it was", dir.path(), need);
            }
            return;
        }
        if (space.usable() < need) {
            throw new BitCaskException("merge of " + dir.path() + " refused: its " + inputs.size() + " segments need about "
                    + need + " bytes free for the copies, and the disk has " + space.usable() + "; the store is unchanged,"
                    + " and a merge can run once space is freed");
        }
    }
}
