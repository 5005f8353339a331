/**
 * The store's segments: the tracked file and where its tombstones lie, the slot table readers use
 * without a lock, the scanner that open, verify, repair and hints read files with, the queue of
 * sealed segments to force, and the hint writer. Internal.
 */
package io.caskbench.bitcask.segment;
