/**
 * Segment backends: small read and write interfaces with a FileChannel and a MappedByteBuffer
 * implementation, the reader gate that keeps mappings alive for lock-free readers, file naming and
 * durable file helpers, the store directory, its force and its lock, and the store's status.
 *
 * <p>Internal, with one exception: {@link io.caskbench.bitcask.io.Unmapper}, which releases a
 * {@code MappedByteBuffer} at once, is a supported entry point for code outside the store that maps
 * files too (the file-reading benchmarks use it). Nothing else here is kept stable between releases.
 */
package io.caskbench.bitcask.io;
