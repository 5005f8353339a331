/**
 * Segment backends: small read and write interfaces with a FileChannel, a MappedByteBuffer and (JDK 22
 * and newer) a MemorySegment implementation, the reader gate that keeps mappings alive for lock-free
 * readers, file naming and durable file helpers, the store directory, its force and its lock, and the
 * store's status.
 *
 * <p>The two mapped backends share {@code MappedSegment}: allocation ahead of the writer, bounds, and
 * forcing; each brings only its {@code Mapping}. {@code MemorySegmentBackend} lives in
 * {@code src/main/java22} and reaches the jar under {@code META-INF/versions/22}; the base code asks
 * {@link io.caskbench.bitcask.io.MemorySegmentSupport} for it, whose JDK 17 version refuses. Its
 * mappings end by closing their arena, never through {@code sun.misc.Unsafe}.
 *
 * <p>Internal, with one exception: {@link io.caskbench.bitcask.io.Unmapper}, which releases a
 * {@code MappedByteBuffer} at once, is a supported entry point for code outside the store that maps
 * files too (the file-reading benchmarks use it). Nothing else here is kept stable between releases.
 */
package io.caskbench.bitcask.io;
