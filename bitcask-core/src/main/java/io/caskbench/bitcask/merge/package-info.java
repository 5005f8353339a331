/**
 * Pieces of compaction: the copy throttle and the relocation list. Internal.
 */
package io.caskbench.bitcask.merge;
