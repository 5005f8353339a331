package io.caskbench.bitcask;

import java.util.List;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>What a {@link BitCask#merge(MergeScope)} did.
 *
 * @param removedSegments ids of the segments merged away
 * @param addedSegments   ids of the segments written
 * @param bytesBefore     data bytes of the removed segments
 * @param bytesAfter      data bytes of the added segments
 * @param recordsCopied   live records copied
 * @param millis          wall time of the merge
 * @param restedMillis    of that time, how long the merge rested between its copying slices because the gets
 *                        and puts beside it ran slower while it copied ({@link BitCaskOptions#mergePacing}); 0
 *                        when pacing is off or the foreground was idle
 * @param segmentsInStore segments the store had when the merge chose its inputs, the one it sealed included
 * @param bytesRead       bytes the merge read from its inputs: their live records, and the tombstones it looked
 *                        at; not their dead records, so under a sustained overwrite a tenth or less of
 *                        {@code bytesBefore}
 */
public record MergeResult(List<Long> removedSegments, List<Long> addedSegments, long bytesBefore, long bytesAfter,
                          long recordsCopied, long millis, long restedMillis, int segmentsInStore, long bytesRead) {

    /** Segments the merge took as inputs, out of {@link #segmentsInStore()}. */
    public int inputsSelected() {
        return removedSegments.size();
    }

    /** Bytes the merge gave back to the file system. */
    public long bytesReclaimed() {
        return bytesBefore - bytesAfter;
    }

    /** A result for a merge that found nothing to do. */
    static MergeResult nothing() {
        return new MergeResult(List.of(), List.of(), 0, 0, 0, 0, 0, 0, 0);
    }
}
