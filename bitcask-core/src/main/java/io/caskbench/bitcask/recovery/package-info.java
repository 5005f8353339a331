/**
 * Scanning data files at open: accepting records by CRC, skipping corruption, finding torn tails. Internal.
 */
package io.caskbench.bitcask.recovery;
