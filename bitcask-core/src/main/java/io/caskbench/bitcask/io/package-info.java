/**
 * Segment backends: small read and write interfaces with a FileChannel and a MappedByteBuffer
 * implementation, the reader gate that keeps mappings alive for lock-free readers, file naming and
 * durable file helpers, the store directory, its force and its lock, and the store's status.
 * Internal.
 */
package io.caskbench.bitcask.io;
