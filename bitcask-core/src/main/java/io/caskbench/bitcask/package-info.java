/**
 * The BitCask store: {@link io.caskbench.bitcask.BitCask}, its immutable
 * {@link io.caskbench.bitcask.BitCaskOptions}, statistics, batches, codecs and exceptions.
 *
 * <h2>Threading model</h2>
 * Every public method of {@code BitCask} is thread-safe.
 * <ul>
 *   <li><b>Reads</b> ({@code get}, {@code containsKey}, {@code forEach}) take no lock. They probe the
 *   key directory's arrays with acquire loads and read the record through the segment backend,
 *   inside a {@link io.caskbench.bitcask.io.ReaderGate} that keeps segments mapped while they read.</li>
 *   <li><b>Writes</b> ({@code put}, {@code delete}, {@code write}) are serialized by one barging lock:
 *   copy the record into the active segment, publish the new location in the key directory. A
 *   {@code put} encodes and checksums its record on the caller's thread before it takes the lock. Forcing
 *   under {@link io.caskbench.bitcask.SyncPolicy#ALWAYS} happens after the lock is released, and
 *   concurrent writers share one force (group commit).</li>
 *   <li><b>Merge</b> runs on the caller's thread (or the background thread under auto-merge) while
 *   reads and writes go on; it takes the write lock only to seal the active segment and to swap
 *   locations, and it waits for in-flight readers before it unmaps what it removed.</li>
 *   <li><b>Close</b> is idempotent and waits for in-flight readers, writers and merges.</li>
 * </ul>
 *
 * <h2>Exception policy</h2>
 * All exceptions are unchecked. {@link java.lang.NullPointerException} for null arguments,
 * {@link java.lang.IllegalArgumentException} for empty or oversized keys and oversized values,
 * {@link java.lang.IllegalStateException} for any use after {@code close()}. Everything else that
 * goes wrong is a {@link io.caskbench.bitcask.BitCaskException}: {@link io.caskbench.bitcask.BitCaskLockedException}
 * for a directory held by another store, {@link io.caskbench.bitcask.BitCaskCorruptionException} for
 * bytes that fail their CRC (they are never returned), {@link io.caskbench.bitcask.BitCaskReadOnlyException}
 * for a write to a read-only store, and the root type for I/O failures such as a full disk. A failed
 * write leaves the store as it was before the call.
 *
 * <h2>Critical paths</h2>
 * {@code get}: hash the key, probe the directory (one cache miss), copy the record from the mapping
 * or one {@code pread}, check key and CRC32C, copy the value out. No lock, no allocation but the
 * returned array. {@code put}: encode into a per-thread buffer, then under the write lock one copy
 * into the mapping or one {@code pwrite} and one directory update. Nothing on these paths logs above
 * DEBUG.
 *
 * <p>Packages: {@code .format} holds the binary layouts, {@code .io} the segment backends,
 * {@code .index} the key directory, {@code .recovery} the scan that rebuilds it, {@code .merge}
 * the pieces of compaction. Classes in those packages are internal: public only so that the store
 * can use them across packages, and subject to change.
 */
package io.caskbench.bitcask;
