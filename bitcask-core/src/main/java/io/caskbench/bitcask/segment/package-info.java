/**
 * The store's segments: the tracked file, the slot table readers use without a lock, the scanner
 * that open, verify, repair, hints and merge read files with, the queue of sealed segments to
 * force, and the hint writer. Internal.
 */
package io.caskbench.bitcask.segment;
