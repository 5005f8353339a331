/**
 * The log: the one writer that appends records and batches and rolls segments over, the code that
 * changes the key directory, group commit, the lock-free reader, and the batch seqlock. Internal.
 */
package io.caskbench.bitcask.log;
