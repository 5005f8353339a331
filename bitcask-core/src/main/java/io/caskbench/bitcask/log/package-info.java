/**
 * The log: the one writer that appends records ({@code LogWriter}), with its rollover of segments
 * ({@code Rollover}) and its batch append ({@code BatchAppend}); the write protocol
 * ({@code WriteProtocol}); the code that changes the key directory; group commit; the lock-free
 * reader; and the batch seqlock. Internal.
 */
package io.caskbench.bitcask.log;
