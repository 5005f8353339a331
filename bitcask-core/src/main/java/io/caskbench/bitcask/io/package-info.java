/**
 * Segment backends: small read and write interfaces with a FileChannel and a MappedByteBuffer implementation, the reader gate that keeps mappings alive for lock-free readers, and file naming. Internal.
 */
package io.caskbench.bitcask.io;
