/**
 * Compaction: the merger (seal, copy live records, swap, retire), one output file's life, whether
 * a merge is due, the copy throttle and the relocation list. Internal.
 */
package io.caskbench.bitcask.merge;
