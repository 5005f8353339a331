package io.caskbench.bitcask;

import java.util.List;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>A snapshot of a store's size and fragmentation.
 *
 * @param keyCount     live keys
 * @param liveBytes    bytes of the records that are current values of live keys
 * @param deadBytes    bytes of overwritten, deleted and expired records and tombstones: what merge reclaims
 * @param segmentCount segment files
 * @param diskBytes    bytes of the data and hint files, each data file counted to the end of its records.
 *                     While the store is open with the {@code MAPPED} or {@code MEMORY_SEGMENT} backend,
 *                     the file of the active segment is preallocated to the segment size, so {@code ls -l}
 *                     and {@code du} show more than this, and little shrinkage after a merge, until close
 *                     cuts the file to its records
 * @param indexBytes   heap bytes of the key directory
 * @param segments     per-segment figures, oldest first
 */
public record BitCaskStats(long keyCount, long liveBytes, long deadBytes, int segmentCount, long diskBytes,
                           long indexBytes, List<SegmentStats> segments) {

    /** Dead bytes over all record bytes, 0 when empty. */
    public double deadRatio() {
        long total = liveBytes + deadBytes;
        return total == 0 ? 0 : (double) deadBytes / total;
    }

    /**
     * Figures of one segment.
     *
     * @param id        the segment's file id
     * @param active    true for the segment being appended to
     * @param dataBytes bytes of records in the segment
     * @param liveBytes bytes of its records that are current
     */
    public record SegmentStats(long id, boolean active, long dataBytes, long liveBytes) {
        /** Bytes of records that merge would drop. */
        public long deadBytes() {
            return dataBytes - liveBytes;
        }
    }
}
