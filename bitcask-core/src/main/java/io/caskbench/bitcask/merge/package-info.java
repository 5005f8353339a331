/**
 * Compaction: the merger (seal, copy live records, swap, retire) and its copy step (the inputs' live
 * records found in the key directory, read and nothing else, and the tombstones that must stay),
 * one output file's life, whether a merge is due, the copy throttle, the pacer that rests the
 * copying while it slows the foreground (and the foreground's sampled latency it decides on), and
 * the relocation list. Internal.
 */
package io.caskbench.bitcask.merge;
