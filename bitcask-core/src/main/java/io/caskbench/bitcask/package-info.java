/**
 * The BitCask store: {@link io.caskbench.bitcask.BitCask}, its immutable
 * {@link io.caskbench.bitcask.BitCaskOptions}, statistics, batches, codecs and exceptions, and what
 * {@code BitCask.verify} and {@code BitCask.repair} report about a store directory.
 *
 * <h2>Threading model</h2>
 * Every public method of {@code BitCask} is thread-safe.
 * <ul>
 *   <li><b>Reads</b> ({@code get}, {@code containsKey}, {@code forEach}) take no lock. They probe the
 *   key directory's arrays with acquire loads and read the record through the segment backend,
 *   inside a {@link io.caskbench.bitcask.io.ReaderGate} that keeps segments mapped while they read.
 *   The gate is what keeps a read out of a released mapping on every backend; on
 *   {@link io.caskbench.bitcask.Backend#MEMORY_SEGMENT} a read that got past a flaw in it would throw
 *   {@link java.lang.IllegalStateException} where {@code MAPPED} would crash the JVM.</li>
 *   <li><b>Writes</b> ({@code put}, {@code delete}, {@code write}) take their place in the log under
 *   the log writer's barging lock. A {@code put} encodes and checksums its record on the caller's
 *   thread before it takes the lock, holds it only to reserve its range in the active segment, then
 *   copies the record there and publishes the new location in the key directory after it lets go:
 *   puts copy and probe the directory in parallel, and a compare-and-set that only moves a key toward
 *   a later record in the log makes the later reservation win whichever publishes first. A
 *   {@code kill -9} in the middle of copies can leave a hole in front of a returned write, which
 *   recovery steps over. Deletes, which read the directory before they write, and batches, whose keys
 *   appear all at once, write and update it under the lock once the puts already past it have copied
 *   and published.
 *   Forcing under {@link io.caskbench.bitcask.SyncPolicy#ALWAYS} happens after the lock is released,
 *   and concurrent writers share one force (group commit).</li>
 *   <li><b>Merge</b> runs on the caller's thread (or the background thread under auto-merge) while
 *   reads and writes go on; it takes the write lock only to seal the active segment and to swap
 *   locations, and it waits for in-flight readers before it unmaps what it removed. While it copies,
 *   one get or put in 32 is timed ({@code merge.ForegroundLatency}, lock-free), and the merge rests
 *   while they run slower than during its rests ({@code merge.MergePacer}). A merge takes the
 *   segments worth merging ({@code merge.SegmentSelector}); a tombstone it reads goes only when no
 *   segment older than the tombstone's survives the merge, else it is copied unless its key has a
 *   newer value ({@code merge.ShadowingTombstones}).</li>
 *   <li><b>Close</b> is idempotent and waits for in-flight readers, writers and merges.</li>
 *   <li>No part locks the public {@code BitCask} object: a caller may synchronize on it freely.</li>
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
 * write leaves the store as it was before the call, with one exception: a put or batch whose records
 * were written but whose key directory update failed (a read of a key's previous record threw) keeps
 * reads on the previous values, and a reopen may find the new ones; for a batch, all of them or none,
 * as the batch's key checks all read before its first key changes. The records are dead, so a merge
 * that takes their segment drops them, and a reopen after it finds the previous values.
 *
 * <h2>Critical paths</h2>
 * {@code get}: hash the key, probe the directory (one cache miss), copy the record from the mapping
 * or one {@code pread}, check key and CRC32C, copy the value out. No lock, no allocation but the
 * returned array. {@code put}: encode into a per-thread buffer, reserve its range under the write
 * lock, then, without the lock, one copy into the mapping or one {@code pwrite} and one directory
 * update by compare-and-set. Nothing on these paths logs above
 * DEBUG. Walked from the facade:
 * <ol>
 *   <li>{@code get}: {@code BitCask.get} checks the key → (1) {@code log.RecordReader.get} enters
 *   the reader gate → (2) {@code readOutsideBatches} reads between two batch publications → (3)
 *   {@code read} probes {@code index.SlotTable} → (4) {@code load} copies the record through
 *   {@code segment.Segment.reader()} and checks it with {@code format.RecordFormat}. Under
 *   {@code ALWAYS} a record not yet forced sends the reader to {@code log.GroupCommit.syncAll}
 *   outside the gate, and it reads again.</li>
 *   <li>{@code put}: {@code BitCask.put} checks the arguments → (1) {@code log.LogWriter.put}
 *   encodes the record and takes the lock, checks room in the key directory and reserves the record's
 *   range ({@code reserve}, rolling over through {@code log.Rollover} when full, and
 *   {@code Reservations.add}); the lock is released → (2) it writes the record through
 *   {@code Segment.writer()} and marks the range done ({@code Reservations.done}) → (3)
 *   {@code log.KeyDirWriter.publish} → (4) {@code index.KeyDir.publish}. Back in the facade, {@code afterWrite} joins
 *   {@code GroupCommit.syncTo} under {@code ALWAYS}.</li>
 * </ol>
 *
 * <h2>Layout</h2>
 * This package holds the facade and the public types; the engine lies below it, its dependencies
 * pointing one way (facade → merge, recovery → log → segment → io; format, index and events are
 * leaves that import nothing of the engine). {@code LayeringTest} enforces that in {@code mvn verify}.
 * <ul>
 *   <li>{@code BitCask}: wires the parts in {@code open}, checks arguments, hands each call to one
 *   part, and orders {@code close}. Beside it, package-private: {@code Limits} (argument checks),
 *   {@code Background} (interval sync and the automatic merge check), {@code Backup} (backup and
 *   checkpoint) with {@code BackupCheck} (the check of each copy),
 *   {@code Stats}.</li>
 *   <li>{@code .log}: {@code WriteProtocol}, the writers' lock and the count of puts still
 *   publishing, with the only two ways in (a put's and an exclusive change's); {@code LogWriter},
 *   the one writer (active segment, reservation, append), with {@code Rollover} (seals a full
 *   segment, opens the next, hands out ids and a merge's gap of them) and {@code BatchAppend} (a
 *   batch encoded as one unit, its keys published inside the fence); {@code Reservations}, the
 *   ranges still being copied and the log's written end; {@code KeyDirWriter}, the only code that
 *   changes the key directory, and the live-byte accounting; {@code GroupCommit}, which sees the
 *   log through a two-method interface;
 *   {@code RecordReader}, lock-free gets and iteration with the record checks written once;
 *   {@code BatchFence}, the seqlock.</li>
 *   <li>{@code .segment}: {@code Segment}, {@code SegmentTable} (slots read without a lock, a
 *   private lock for changes), {@code SegmentScanner}, {@code UnforcedSegments} (sealed segments
 *   to force, oldest first), {@code HintWriter} (its own daemon).</li>
 *   <li>{@code .recovery}: {@code Recovery}, all that open does to the files, with {@code HintSweep},
 *   which loads the hint files of consecutive segments in one pass over the key directory, band of
 *   hashes by band, each file read through a {@code format.HintReader} window; {@code Maintenance},
 *   where the facade's {@code isStore}, {@code verify} and {@code repair} begin, over
 *   {@code StoreVerifier} (a {@code SegmentCheck} per data file, {@code HintComparison} for its
 *   hint) and {@code StoreRepairer}, which apply open's rules to a directory without opening it.</li>
 *   <li>{@code .merge}: {@code Merger} (seal, copy, swap, retire) with {@code MergeCopy}, the copy
 *   step (scan the inputs, append live records to outputs, note relocations), {@code SegmentSelector}
 *   (which segments a merge takes), {@code ShadowingTombstones} (which tombstones a partial merge
 *   must keep), {@code MergeOutput}, {@code MergePolicy}, {@code MergeThrottle}, {@code MergePacer}, {@code ForegroundLatency},
 *   {@code Relocations}.</li>
 *   <li>{@code .index}: {@code KeyDir} (put, delete, publish, relocate, rebuilds, key counts) over
 *   {@code SlotTable} (the slots, read without a lock, and their stores), and {@code Location}, the
 *   bit packing of a record's place.</li>
 *   <li>{@code .format}: {@code RecordFormat}, {@code HintFormat} with {@code HintReader}, which
 *   reads a hint file front to back through a window, and {@code KeyHash}, which is part of the
 *   format because hint files are sorted by it.</li>
 *   <li>{@code .events}: the JDK Flight Recorder events each part emits (open, rollover, force,
 *   merge, hint write, refused write, slow get and put) and, beside them as a resource,
 *   {@code bitcask.jfc}, the settings that enable them all. The merge's event is emitted by the
 *   facade ({@code MergeRecording}) from the {@code MergeResult}.</li>
 *   <li>{@code .io}: the backends ({@code FileChannelBackend}; {@code MappedBackend} and, for JDK 22
 *   and newer, {@code MemorySegmentBackend}, which share {@code MappedSegment}), {@code ReaderGate},
 *   file naming and durable file helpers,
 *   {@code StoreDirectory} (the directory and its force), {@code StoreLock} (the directory's lock,
 *   which open and repair take), {@code StoreStatus} (open, closing, closed, failed: what every
 *   layer checks) and {@code Threads}.</li>
 * </ul>
 * Where this differs from a first sketch, and why: the store's status and its directory live in
 * {@code .io}, the lowest layer, because every layer reads them; the hint writer sits with the
 * segments, as it needs nothing of the log; {@code KeyHash} moved to {@code .format} so that format
 * and index stay leaves. Engine parts get the clock, sizes and the sync policy through their
 * constructors, never the options; the types from this package they use besides the exceptions
 * are {@code MergeResult}, which the merger builds, and {@code VerifyReport}, {@code RepairReport}
 * and {@code ProgressListener}, which verify and repair build and report to. {@code StoreLock}
 * lives in {@code .io} because repair takes it as open does. Each part logs under its own class
 * name, all below {@code io.caskbench.bitcask}.
 *
 * <p>Fault injection: {@code BitCaskOptions.Builder.segmentBackend} is package-private, so the
 * internal backend interface is not part of the public API. Tests in this package use it
 * directly, tests in other packages through {@code InternalOptions} in this package's test tree;
 * the test doubles in {@code testing/} implement the interface. bitcask-core's {@code io.Unmapper} is not shared with bench-shm's copy: that module
 * does not depend on the store, and its copy also frees plain direct buffers.
 *
 * <h2>Multi-release jar</h2>
 * The store is built for Java 17, and the {@code MEMORY_SEGMENT} backend needs the FFM API of JDK 22:
 * its classes are compiled from {@code src/main/java22} into {@code META-INF/versions/22}, by a build
 * on JDK 22 or newer only. The base code reaches them through one class that exists in both trees,
 * {@code io.MemorySegmentSupport}: its JDK 17 version refuses with an
 * {@link java.lang.IllegalArgumentException} naming the JDK needed, its JDK 22 version builds the
 * backend, and a JVM of 22 or newer reading the jar loads the latter.
 *
 * <p>Packages other than this one are internal: public only so that the store can use them across
 * packages, and subject to change.
 */
package io.caskbench.bitcask;
