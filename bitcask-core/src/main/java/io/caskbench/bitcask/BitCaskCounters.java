package io.caskbench.bitcask;

import java.time.Duration;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>What a store has done since it was opened: calls, merges and forces, counted as they happen.
 * Each figure is read on its own, so one taken while calls run may be a few operations apart from
 * another.
 *
 * @param puts          puts, batch members included, failed ones too
 * @param gets          gets, failed ones too ({@code containsKey} and iteration not counted)
 * @param deletes       deletes, batch members included, whether or not the key had a value
 * @param merges        merges that rewrote something
 * @param mergeTime     the wall time of those merges together
 * @param mergeReclaimedBytes bytes those merges gave back to the file system
 * @param mergeBytesRead bytes those merges read: their inputs' live records and tombstones together
 *                      ({@link MergeResult#bytesRead()})
 * @param largestMergeBytesRead the most bytes one of those merges read; bounded by
 *                      {@link BitCaskOptions#mergeMaxInputBytes()} or one segment, whichever is larger, for a
 *                      selective merge
 * @param longestMerge  the wall time of the longest of those merges
 * @param forces        forces made for durability: {@code sync()}, the interval's sync, writes under {@code ALWAYS}
 * @param forceTime     the wall time of those forces together
 * @param refusedWrites writes refused because a force failed earlier
 * @param stalledPuts   puts and batches that were delayed, or waited, because merges fell behind the
 *                      space bound ({@link BitCaskOptions#maxSpaceAmplification()}), each counted once
 * @param stallTime     the time they were delayed or waited, all of them together
 * @param mergeDebtBytes the segments' data bytes over the level where automatic merges start, as the
 *                      store's debt daemon last found them (every few milliseconds): what merges owe; a
 *                      gauge, not a count. 0 while automatic merge is off
 */
public record BitCaskCounters(long puts, long gets, long deletes, long merges, Duration mergeTime,
                              long mergeReclaimedBytes, long mergeBytesRead, long largestMergeBytesRead,
                              Duration longestMerge, long forces, Duration forceTime, long refusedWrites,
                              long stalledPuts, Duration stallTime, long mergeDebtBytes) {
}
