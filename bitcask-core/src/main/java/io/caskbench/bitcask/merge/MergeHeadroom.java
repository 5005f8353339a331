package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.io.MappedBackend;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.segment.Segment;

import java.util.List;

/**
 * Threading: static helpers, safe everywhere.
 *
 * <p>The room a merge needs on the disk, checked before it seals or writes anything: the live bytes of
 * its inputs (what it copies, tombstones it keeps aside), an eighth more for their hint files, and
 * two allocation chunks, one for the segment its seal opens and one that an output allocates ahead of
 * its records. A merge that does not fit is refused with the figures, and the store stays as it was;
 * one that runs out of room anyway (it kept more tombstones than estimated, or another process took
 * the space) fails before its swap, and removes its outputs.
 */
public final class MergeHeadroom {

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

    /** Throws when the disk of {@code dir} has less free than a merge of {@code inputs} needs. */
    public static void ensure(StoreDirectory dir, List<Segment> inputs, long segmentSize) {
        long need = needed(inputs, segmentSize);
        long free = dir.backend().space(dir.path()).usable();
        if (free < need) {
            throw new BitCaskException("merge of " + dir.path() + " refused: its " + inputs.size() + " segments need about "
                    + need + " bytes free for the copies, and the disk has " + free + "; the store is unchanged,"
                    + " and a merge can run once space is freed");
        }
    }
}
