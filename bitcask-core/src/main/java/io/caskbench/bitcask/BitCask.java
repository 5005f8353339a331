package io.caskbench.bitcask;

import io.caskbench.bitcask.events.MergeEvent;
import io.caskbench.bitcask.events.SlowGetEvent;
import io.caskbench.bitcask.events.SlowPutEvent;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.StoreDirectory;
import io.caskbench.bitcask.io.StoreLock;
import io.caskbench.bitcask.io.StoreStatus;
import io.caskbench.bitcask.io.Threads;
import io.caskbench.bitcask.log.BatchFence;
import io.caskbench.bitcask.log.GroupCommit;
import io.caskbench.bitcask.log.KeyDirWriter;
import io.caskbench.bitcask.log.LogWriter;
import io.caskbench.bitcask.log.RecordReader;
import io.caskbench.bitcask.log.WriteLimit;
import io.caskbench.bitcask.log.WriteProtocol;
import io.caskbench.bitcask.merge.DebtMonitor;
import io.caskbench.bitcask.merge.ForegroundLatency;
import io.caskbench.bitcask.merge.MergePolicy;
import io.caskbench.bitcask.merge.Merger;
import io.caskbench.bitcask.merge.SegmentSelector;
import io.caskbench.bitcask.merge.SpaceBound;
import io.caskbench.bitcask.merge.WriteStall;
import io.caskbench.bitcask.recovery.Maintenance;
import io.caskbench.bitcask.recovery.Recovery;
import io.caskbench.bitcask.recovery.SalvageLoad;
import io.caskbench.bitcask.segment.HintWriter;
import io.caskbench.bitcask.segment.Segment;
import io.caskbench.bitcask.segment.SegmentTable;
import io.caskbench.bitcask.segment.UnforcedSegments;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An embedded BitCask key-value store: an append-only log of segment files and an in-memory key
 * directory that points at the newest record of every key.
 *
 * <p>Threading: every method is thread-safe. Reads take no lock; writes reach the log one at a time,
 * under the log writer's lock (a put updates the key directory after it lets go); merge, backup,
 * checkpoint and close's start take the merge lock; see the package documentation. The object is never its own monitor: a caller may lock it without stalling it.
 *
 * <pre>{@code
 * try (BitCask db = BitCask.open(Path.of("data"))) {
 *     db.put("object1.png", bytes);
 *     byte[] v = db.get("object1.png");
 * }
 * }</pre>
 *
 * <p>Durability: once {@code put}, {@code delete} or {@code write} returns, the change survives a
 * {@code kill -9} of the process; {@link SyncPolicy} decides when it also survives a power loss.
 *
 * <p>This class is the facade: it wires the parts in {@code open}, checks arguments, hands each
 * call to one part, and orders {@code close}. It is over 400 lines because it is the public API
 * (33 documented public methods and {@code toString}, each handing its call to one part) plus the
 * wiring of open and the order of close; it holds no engine logic.
 */
public final class BitCask implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BitCask.class);

    static {
        // With the facade, not on the first get or put: while a recording runs, the slow-operation
        // events' initializers register them with JFR, which pinned a virtual thread's carrier for
        // up to 260 ms on the first put, and every other first caller waited on it.
        initialize(SlowGetEvent.class);
        initialize(SlowPutEvent.class);
    }

    // Every field is final and set by the constructor: safe everywhere. Each part states its own threading rule.
    /** The store's directory, absolute. */
    private final Path dir;
    /** The directory as text: the store's name in its events. */
    private final String name;
    /** What the store was opened with. */
    private final BitCaskOptions options;
    /** Argument checks for writes. */
    private final Limits limits;
    /** True under {@code ALWAYS} (and not read-only): a write returns once it is forced. */
    private final boolean syncAlways;
    /** The directory lock, null when read-only. */
    private final StoreLock storeLock;
    /** The directory, its backend and its force. */
    private final StoreDirectory files;
    /** Open, closing, closed or failed. */
    private final StoreStatus status;
    /** What close and merge wait on before they unmap a segment. */
    private final ReaderGate gate = new ReaderGate();
    /** Key to record location. */
    private final KeyDir keyDir;
    /** The segments by slot and by id. */
    private final SegmentTable table;
    /** Sealed segments not yet forced. */
    private final UnforcedSegments unforced;
    /** Writes sealed segments' hint files. */
    private final HintWriter hints;
    /** The one writer of the log. */
    private final LogWriter log;
    /** Waits for durability. */
    private final GroupCommit commit;
    /** Gets and iteration. */
    private final RecordReader reader;
    /** Compaction. */
    private final Merger merger;
    /** Sampled latency of gets and puts while a merge runs, which paces it. */
    private final ForegroundLatency foreground = new ForegroundLatency();
    /** Whether an automatic merge is due. */
    private final MergePolicy mergePolicy;
    /** Holds puts and batches to what merges reclaim once the data nears its bound. */
    private final WriteStall stall;
    /** Sums the segments' figures for the stall, and asks for merges. */
    private final DebtMonitor debt;
    /** Interval sync and automatic merge checks. */
    private final Background background;
    /** Held by merge and backup, and by close while it marks the store closed, so no merge or backup starts in between. */
    private final ReentrantLock mergeLock = new ReentrantLock();
    /** Calls and merges counted, for {@link #counters()}. */
    private final Counters counters = new Counters();
    /** Opened once close() has finished, for a second caller to wait on. */
    private final CountDownLatch closeDone = new CountDownLatch(1);

    /**
     * Wires the parts and recovers the store, or, given {@code salvage}, loads it as a salvage reads
     * it; on failure releases what it acquired and throws.
     */
    private BitCask(Path dir, BitCaskOptions options, boolean created, SalvageLoad salvage) {
        this.dir = dir;
        this.name = dir.toString();
        this.options = options;
        this.limits = new Limits(options.maxKeySize(), options.maxValueSize());
        boolean readOnly = options.readOnly();
        this.syncAlways = options.syncPolicy() == SyncPolicy.ALWAYS && !readOnly;
        SegmentBackend backend = options.segmentBackend();
        this.files = new StoreDirectory(dir, backend);
        this.status = new StoreStatus(dir, readOnly);
        this.keyDir = new KeyDir(options.expectedKeys());
        this.table = new SegmentTable(files, options.segmentSize());
        this.storeLock = readOnly ? null : StoreLock.acquire(dir);
        this.unforced = new UnforcedSegments(table, gate, backend);
        this.hints = new HintWriter(files, status, table, gate);
        WriteProtocol protocol = new WriteProtocol();
        KeyDirWriter keys = new KeyDirWriter(keyDir, table, dir, protocol, syncAlways);
        BatchFence fence = new BatchFence();
        WriteLimit limit = new WriteLimit();
        this.mergePolicy = new MergePolicy(options.mergeDeadBytes(), options.mergeDeadRatio());
        try {
            if (created && dir.getParent() != null) {
                backend.forceDirectory(dir.getParent()); // the store's own name must survive a power loss
            }
            Recovery.Recovered found = salvage != null ? salvage.run(files, table, keys)
                    : new Recovery(files, table, keyDir, keys, unforced, options.segmentSize(), options.expectedKeys(), readOnly,
                    syncAlways).run();
            this.log = new LogWriter(files, status, table, protocol, keys, fence, unforced, hints, options.clock(),
                    options.segmentSize(), syncAlways, found.active(), found.nextId(), limit);
            // Only with automatic merge: a store whose application merges by itself would have its puts wait
            // for a merge nobody runs, or runs only between those very puts.
            boolean bounded = options.autoMerge() && !readOnly;
            this.stall = new WriteStall(new SpaceBound(bounded ? options.maxSpaceAmplification() : Double.POSITIVE_INFINITY,
                    options.mergeDeadRatio(), options.segmentSize()), limit, options.writeStallTimeout().toNanos(), name,
                    () -> status.failed() || status.closing(), log::reserved, this::refreshDebt);
            this.commit = new GroupCommit(log, status, dir);
            this.reader = new RecordReader(keyDir, table, gate, fence, status, commit, options.clock(), syncAlways);
            this.merger = new Merger(files, status, log, keys, keyDir, table, unforced, hints, gate, commit, options.clock(),
                    options.segmentSize(), options.mergeBytesPerSecond(), foreground, options.mergePacing(), stall::restAllowed,
                    new SegmentSelector(options.mergeSegmentDeadRatio(), options.mergeSegmentDeadBytes(),
                            options.mergeSmallSegmentBytes(), options.mergeMaxInputBytes(), stall::engaged));
            this.debt = new DebtMonitor(table, log, stall, mergePolicy, this::mergeSoon);
            this.background = Background.start(dir, options, this::backgroundSync, this::autoMerge, debt::round);
        } catch (RuntimeException | Error e) {
            abandon();
            throw e;
        }
    }

    /** Opens (creating if needed) the store in {@code dir} with default options. */
    public static BitCask open(Path dir) {
        return open(dir, BitCaskOptions.defaults());
    }

    /**
     * Opens (creating if needed) the store in {@code dir}.
     *
     * @throws BitCaskLockedException when another store holds the directory
     * @throws BitCaskException       when the files cannot be read or recovered
     */
    public static BitCask open(Path dir, BitCaskOptions options) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        Path absolute = dir.toAbsolutePath().normalize();
        boolean created = false;
        try {
            if (options.readOnly()) {
                if (!Files.isDirectory(absolute)) {
                    throw new BitCaskException("no BitCask store at " + absolute);
                }
            } else if (!Files.isDirectory(absolute)) {
                Files.createDirectories(absolute);
                created = true;
            }
        } catch (IOException e) {
            throw new BitCaskException("cannot create " + absolute + ": " + e.getMessage(), e);
        }
        return new BitCask(absolute, options, created, null);
    }

    /** Opens the store in {@code dir} read-only as {@code load} reads it: for {@link Salvage} only. */
    static BitCask openSalvage(Path dir, SalvageLoad load) {
        if (!Files.isDirectory(dir)) {
            throw new BitCaskException("no BitCask store at " + dir);
        }
        return new BitCask(dir, BitCaskOptions.builder().readOnly(true).backend(Backend.FILE_CHANNEL).build(), false, load);
    }

    // ------------------------------------------------------------ maintenance

    /** True when {@code dir} is a directory that holds a store: a data, hint or lock file. */
    public static boolean isStore(Path dir) {
        return Maintenance.isStore(dir);
    }

    /**
     * Reads every file of the store in {@code dir} without opening it, and reports each kind of
     * damage and where it is; changes nothing. Works beside a live writer (the report says so).
     *
     * @throws BitCaskException when {@code dir} holds no store or cannot be read
     */
    public static VerifyReport verify(Path dir) {
        return verify(dir, VerifyReport.Depth.RECORDS, ProgressListener.NONE);
    }

    /**
     * Like {@link #verify(Path)}, reading as much as {@code depth} says, and telling
     * {@code progress} how far it has come.
     */
    public static VerifyReport verify(Path dir, VerifyReport.Depth depth, ProgressListener progress) {
        return Maintenance.verify(dir, depth, progress);
    }

    /**
     * Verifies the store in {@code dir} and plans a repair by recovery's own rules (see
     * {@link RepairReport}); when {@code apply}, first copies every file it will change into
     * {@code backupDir} (which must not exist), then changes them and verifies again. Holds the
     * store's lock meanwhile.
     *
     * @throws BitCaskLockedException when a store, in this process or another, holds {@code dir}
     * @throws BitCaskException       when {@code dir} holds no store, or a file operation fails
     */
    public static RepairReport repair(Path dir, boolean apply, Path backupDir, ProgressListener progress) {
        return Maintenance.repair(dir, apply, backupDir, progress);
    }

    /**
     * Opens the store in {@code dir} read-only to read a damaged store out: every record that checks
     * on its own, the readable members of damaged batches and the records of kept tails included,
     * which open never applies. {@link Salvage#forEach} says where each of those came from. Never
     * write what a salvage reads back into the store it came from without looking: a torn batch's
     * members are there too.
     *
     * @throws BitCaskException when {@code dir} holds no store or cannot be read
     */
    public static Salvage salvage(Path dir) {
        return Salvage.open(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize());
    }

    /**
     * Bytes that a put of a key and value of these lengths, without a time to live, appends to the
     * active segment: the record header, the key and the value. For sizing disks and segments, and
     * for benchmarks that compare the store with a raw write of the same bytes.
     *
     * @throws IllegalArgumentException when a length is negative or the key is empty
     */
    public static int recordSize(int keyLength, int valueLength) {
        if (keyLength <= 0 || valueLength < 0) {
            throw new IllegalArgumentException("key length must be positive and value length not negative: "
                    + keyLength + ", " + valueLength);
        }
        return RecordFormat.recordLength(0, keyLength, valueLength);
    }

    // ------------------------------------------------------------------ reads

    /** The value of {@code key}, or null when it is absent, deleted or expired. */
    public byte[] get(byte[] key) {
        Limits.checkKey(key);
        SlowGetEvent slow = SlowGetEvent.start();
        counters.get();
        long begun = foreground.begin();
        byte[] value = reader.get(key, true);
        foreground.end(begun);
        SlowGetEvent.finish(slow, name, key.length, value);
        return value;
    }

    /** The value of a UTF-8 key, or null. */
    public byte[] get(String key) {
        return get(Limits.utf8(key));
    }

    /** True when {@code key} has a live value. */
    public boolean containsKey(byte[] key) {
        Limits.checkKey(key);
        return reader.get(key, false) != null;
    }

    /** True when the UTF-8 key has a live value. */
    public boolean containsKey(String key) {
        return containsKey(Limits.utf8(key));
    }

    // ----------------------------------------------------------------- writes

    /**
     * Stores {@code value} under {@code key}, replacing any previous value.
     *
     * @throws NullPointerException     when key or value is null
     * @throws IllegalArgumentException when the key is empty or too long, or the value too long
     * @throws IllegalStateException    when the store is closed
     * @throws BitCaskException         when the write fails (for example on a full disk); the
     *                                  store is unchanged then. When the record was written but
     *                                  reading the key's previous record failed as the key
     *                                  directory was updated, reads keep the previous value until
     *                                  a reopen, which may find the new one
     */
    public void put(byte[] key, byte[] value) {
        limits.checkNewKey(key);
        limits.checkValue(value);
        putChecked(key, value, 0);
    }

    /** Stores {@code value} under a UTF-8 key. */
    public void put(String key, byte[] value) {
        put(Limits.utf8(key), value);
    }

    /**
     * Stores {@code value} under {@code key} until {@code ttl} has passed; after that the key
     * reads as absent, also after reopen, and merge drops it.
     */
    public void put(byte[] key, byte[] value, Duration ttl) {
        limits.checkNewKey(key);
        limits.checkValue(value);
        putChecked(key, value, Limits.ttlMillis(ttl));
    }

    /**
     * A put whose arguments were checked: waits while the store is stalled, appends, waits for durability
     * under {@code ALWAYS}, is sampled and timed. The stall's wait comes first, outside every lock.
     */
    private void putChecked(byte[] key, byte[] value, long ttlMillis) {
        SlowPutEvent slow = SlowPutEvent.start();
        counters.put();
        long stalled = stall.engaged() ? stall.admit(stallBytes(key, value), 0) : 0;
        long begun = foreground.begin();
        afterWrite(append(key, value, ttlMillis, stalled));
        foreground.end(begun);
        SlowPutEvent.finish(slow, name, key.length, value.length);
    }

    /** Appends a put; when the log writer refuses it at the space bound, waits for room and tries again. */
    private long append(byte[] key, byte[] value, long ttlMillis, long stalled) {
        while (true) {
            try {
                return log.put(key, value, ttlMillis);
            } catch (WriteLimit.Reached full) {
                stalled = stall.reached(stallBytes(key, value), stalled);
            }
        }
    }

    /** About the record bytes of a put, for the stall's rate. */
    private static int stallBytes(byte[] key, byte[] value) {
        return RecordFormat.HEADER_SIZE + key.length + value.length;
    }

    /** Stores {@code value} under a UTF-8 key until {@code ttl} has passed. */
    public void put(String key, byte[] value, Duration ttl) {
        put(Limits.utf8(key), value, ttl);
    }

    /**
     * Deletes {@code key}.
     *
     * @return true when a live value was removed
     */
    public boolean delete(byte[] key) {
        Limits.checkKey(key);
        counters.delete();
        long result = log.delete(key);
        long lsn = result & ~LogWriter.REMOVED;
        if (lsn != 0) {
            afterWrite(lsn);
        }
        return (result & LogWriter.REMOVED) != 0;
    }

    /** Deletes a UTF-8 key; true when a live value was removed. */
    public boolean delete(String key) {
        return delete(Limits.utf8(key));
    }

    /**
     * Applies every operation of {@code batch} atomically: after a crash all of them are there or
     * none is, and no reader sees some without the others.
     *
     * @throws BitCaskException when the batch could not be written, or when a read of a key's previous
     *         record failed once it was: readers then see none of it, and a reopen finds all of it or,
     *         once a merge has taken its segment, none
     */
    public void write(WriteBatch batch) {
        Objects.requireNonNull(batch, "batch");
        List<WriteBatch.Op> ops = batch.ops();
        if (ops.isEmpty()) {
            status.ensureWritable();
            return;
        }
        long total = RecordFormat.BATCH_HEADER_SIZE;
        int deletes = 0;
        for (WriteBatch.Op op : ops) {
            if (op.isDelete()) {
                Limits.checkKey(op.key());
                deletes++;
            } else {
                limits.checkNewKey(op.key());
                limits.checkValue(op.value());
            }
            total += RecordFormat.recordLength(op.ttlMillis() > 0 ? RecordFormat.EXPIRES : 0, op.key().length,
                    op.isDelete() ? 0 : op.value().length);
        }
        if (total + RecordFormat.FILE_HEADER_SIZE > options.segmentSize()) {
            throw new IllegalArgumentException("batch of " + total + " bytes does not fit in a segment of " + options.segmentSize());
        }
        counters.batch(ops.size() - deletes, deletes);
        boolean limited = deletes < ops.size(); // deletes alone are never held: they make room
        long stalled = limited && stall.engaged() ? stall.admit((int) total, 0) : 0;
        while (true) {
            try {
                afterWrite(log.appendBatch(batch.members(), (int) total, limited));
                return;
            } catch (WriteLimit.Reached full) {
                stalled = stall.reached((int) total, stalled);
            }
        }
    }

    /** After the writer's lock is released: waits for durability under {@code ALWAYS}, and starts sealed segments' hints. */
    private void afterWrite(long lsn) {
        if (syncAlways) {
            commit.syncTo(lsn);
        }
        hints.kick();
    }

    // ----------------------------------------------------------- other public

    /**
     * Calls {@code action} with each live key and value. Weakly consistent: every key that stays
     * live throughout the call is seen exactly once, at a value it held at some moment during the
     * call; keys written or deleted meanwhile may or may not be seen, never twice. Keys are visited
     * in blocks of the hash space, and no block shows part of a batch without the rest of it; a
     * batch applied while the call runs may be seen in the blocks visited after it and not in
     * those before. The arrays are fresh copies, and {@code action} runs outside every lock.
     */
    public void forEach(BiConsumer<byte[], byte[]> action) {
        Objects.requireNonNull(action, "action");
        reader.forEach(action, true);
    }

    /** The live keys, as a weakly consistent snapshot taken when the stream is created (see {@link #forEach}). */
    public Stream<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        reader.forEach((key, value) -> keys.add(key), false);
        return StreamSupport.stream(Spliterators.spliterator(keys, Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    /** Keys with a value; a key whose TTL has passed is counted until a merge drops it, as a read cannot change the count. */
    public long size() {
        status.ensureOpen();
        return keyDir.size();
    }

    /** A snapshot of sizes and fragmentation. */
    public BitCaskStats stats() {
        status.ensureOpen();
        return Stats.of(dir, table, keyDir, log.active());
    }

    /**
     * What this store has done since it was opened: puts, gets, deletes, merges and forces with
     * their time, and writes refused after a failed force. Cheap (no lock, no file is read) and
     * still answers once the store is closed.
     */
    public BitCaskCounters counters() {
        return counters.snapshot(commit.forces(), commit.forceNanos(), status.refusedWrites(), stall.stalledWrites(),
                stall.stallNanos(), stall.debtBytes());
    }

    /**
     * Forces every write that returned before this call to the storage device, whatever other puts
     * are still copying: it waits for the copies reserved before the call, not for later ones.
     */
    public void sync() {
        status.ensureOpen();
        if (!status.readOnly()) {
            commit.syncAll();
        }
    }

    /**
     * Merges the segments worth merging: {@link #merge(MergeScope)} with {@link MergeScope#SELECTED},
     * what the automatic merge does. Its cost follows the dead bytes, not the size of the store.
     */
    public MergeResult merge() {
        return merge(MergeScope.SELECTED);
    }

    /**
     * Rewrites the live records of the segments {@code scope} takes (and the tombstones that must
     * stay, see the package documentation) into new, compact segments with hint files, swaps them in
     * atomically and deletes the old files. Reads and writes go on meanwhile; a write made during the
     * merge always wins over the merged copy, and a deleted key never comes back. Only one merge runs
     * at a time; a second caller waits for the first. A merge is a durability barrier whatever it
     * selects: once it returns, every write that returned before it was called is forced.
     */
    public MergeResult merge(MergeScope scope) {
        return merge(scope, true);
    }

    /**
     * A merge; with {@code barrier}, one that selects nothing still forces every write that returned
     * before it, as a merge that copies does when it seals and forces its inputs. The automatic merge
     * is no barrier: nobody waits on it, and a check that finds nothing would force on every tick.
     */
    private MergeResult merge(MergeScope scope, boolean barrier) {
        Objects.requireNonNull(scope, "scope");
        status.ensureWritable();
        mergeLock.lock();
        try {
            status.ensureWritable();
            MergeEvent event = MergeRecording.begin();
            long started = System.nanoTime();
            MergeResult r;
            try {
                r = merger.merge(scope);
            } catch (RuntimeException e) {
                MergeRecording.failed(event, name, e);
                throw e;
            }
            MergeRecording.done(event, name, r);
            if (r != null) {
                long nanos = System.nanoTime() - started;
                counters.merged(nanos, Math.max(0, r.bytesReclaimed()), r.bytesRead());
                stall.merged(r.bytesReclaimed(), nanos - r.restedMillis() * 1_000_000);
                return r;
            }
            if (barrier) {
                commit.syncAll();
            }
            return MergeResult.nothing();
        } finally {
            mergeLock.unlock();
        }
    }

    /**
     * Writes a backup of the store into {@code target} (which must not exist or be empty) while
     * writes go on: a consistent, openable copy that shares no file with the store. Every file is
     * copied and forced, and each copy is read back and checked: every record's CRC against its file
     * and offset, every hint file's own checks.
     *
     * <p>Bytes of a data file that fail their check are damage the store already holds (bad bytes on
     * the disk, or a write that failed halfway): the backup keeps them as they are, so its open skips
     * what the store's open skips, and reports each range, with a WARN, in the returned report, under
     * the kinds {@link #verify} uses. A hint file that fails its checks is left out, and the backup's
     * open scans its data file instead. So a backup never passes a bad byte on as good; a caller that
     * needs a clean one checks {@link BackupReport#clean()}. The copy of the newest segment has no
     * hint file; the backup's first close writes it.
     *
     * <p>For a copy that costs almost nothing but shares the store's files, see {@link #checkpoint}.
     *
     * @return what was copied and what the checks found
     * @throws BitCaskException when a file cannot be read, written or forced, or a copy does not
     *                          read back as what was copied; {@code target} then holds an incomplete copy
     */
    public BackupReport backup(Path target) {
        return copyInto(target, Backup.Mode.COPY);
    }

    /**
     * Writes a checkpoint of the store into {@code target} (which must not exist or be empty) while
     * writes go on: a consistent, openable copy whose immutable segments and hint files are hard
     * links to the store's (copies where the file system refuses a link, as across two file
     * systems), and whose newest segment is a copy. It takes almost no time or space, and guards
     * against a file deleted or a store thrown away, but not against bad bytes or a failed disk: a
     * linked file is the same file, so a byte damaged in one store is damaged in both, a repair of one
     * (which rewrites damaged files in place) changes both, and nothing is checked. Writes and merges
     * never change a shared file: a sealed segment is never written again, and a merge writes new
     * files. Use {@link #backup} for a copy.
     */
    public void checkpoint(Path target) {
        copyInto(target, Backup.Mode.LINK);
    }

    private BackupReport copyInto(Path target, Backup.Mode mode) {
        Objects.requireNonNull(target, "target");
        status.ensureOpen();
        mergeLock.lock(); // a merge deletes segments; the copy must see a stable set
        try {
            status.ensureOpen();
            return Backup.write(files, status, log, gate, target.toAbsolutePath().normalize(), mode);
        } finally {
            mergeLock.unlock();
        }
    }

    /** A typed view of this store with UTF-8 keys. */
    public <T> TypedBitCask<T> typed(Codec<T> codec) {
        return new TypedBitCask<>(this, codec);
    }

    /** The directory of this store. */
    public Path directory() {
        return dir;
    }

    /** The options this store was opened with. */
    public BitCaskOptions options() {
        return options;
    }

    /** True once {@link #close()} has been called. */
    public boolean isClosed() {
        return status.closed();
    }

    // ----------------------------------------------------------------- close

    /**
     * Forces everything, writes the active segment's hint file and releases files, mappings and
     * the directory lock. Idempotent and thread-safe: a second call returns once the first has
     * finished. After a failed force it forces nothing more; under {@code ALWAYS} it then cuts the
     * active segment back to what was forced, since nothing past that was acknowledged.
     *
     * @throws BitCaskException when the final force fails; everything is released all the same
     */
    @Override
    public void close() {
        if (!status.beginClose()) {
            Threads.uninterruptibly(closeDone::await);
            return;
        }
        try {
            closeOnce();
        } finally {
            closeDone.countDown();
        }
    }

    /**
     * In order: stop background work and any merge; mark the store closed (under the merge lock,
     * so that no merge or backup starts in between and reads segments about to be unmapped, and
     * as the one writer, so no write is halfway); stop the hint writer; wait for readers; then cut,
     * force, write the last hints and force the directory; release everything.
     */
    private void closeOnce() {
        boolean activeForced = false;
        background.stop();
        merger.cancel();
        stall.close(); // a put waiting for a merge goes on, to meet the close
        mergeLock.lock();
        try {
            log.markClosed();
        } finally {
            mergeLock.unlock();
        }
        hints.stop();
        gate.awaitReaders();
        try {
            if (!status.readOnly()) {
                Segment act = log.active();
                if (!status.failed()) {
                    log.cutActive();
                    unforced.forceAll();
                    act.force(files.backend());
                    activeForced = true;
                    hints.writeAllOnClose(act);
                    files.forceIfChanged();
                } else if (syncAlways) {
                    log.cutActiveToDurable();
                }
            }
        } finally {
            boolean allClosed = closeSegments(true);
            commit.closed(activeForced && allClosed);
            if (storeLock != null) {
                storeLock.release();
            }
        }
    }

    /** Closes every segment (a writable one forces before it lets go); true when all closed cleanly. */
    private boolean closeSegments(boolean warn) {
        boolean allClosed = true;
        for (Segment seg : table.inOrder()) {
            try {
                seg.close();
            } catch (RuntimeException e) {
                allClosed = false;
                if (warn) {
                    LOG.warn("closing {} failed: {}", seg.file(), e.toString());
                } else {
                    LOG.debug("closing {} after a failed open: {}", seg.file(), e.toString());
                }
            }
        }
        return allClosed;
    }

    /** Releases what a failed open acquired. */
    private void abandon() {
        status.markClosed();
        status.beginClose();
        closeDone.countDown();
        closeSegments(false);
        if (storeLock != null) {
            storeLock.release();
        }
    }

    @Override
    public String toString() {
        return "BitCask[" + dir + ", " + options.backend() + (status.closed() ? ", closed" : "") + "]";
    }

    /** Runs the static initializer of {@code c} now. */
    private static void initialize(Class<?> c) {
        try {
            MethodHandles.lookup().ensureInitialized(c);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // ------------------------------------------------------------- background

    private void backgroundSync() {
        if (!status.failed()) { // a failure was reported; nothing more is forced until the store is reopened
            commit.syncAll();
        }
    }

    /** A round of the debt daemon on this thread: a write was refused at a limit that may be a round old. */
    private void refreshDebt() {
        debt.refresh();
    }

    /** Asks for an automatic merge now: the debt daemon found one due, or writes stalled. */
    private void mergeSoon() {
        background.mergeSoon();
    }

    /**
     * An automatic merge when the trigger is crossed or writes are stalled; false when one was due and
     * selected nothing, so that the next is not asked for before the check interval.
     */
    private boolean autoMerge() {
        BitCaskStats s = stats();
        if (!stall.engaged() && !mergePolicy.due(s.deadBytes(), s.deadRatio())) {
            return true;
        }
        MergeResult r = merge(MergeScope.SELECTED, false);
        if (r.inputsSelected() == 0) {
            return false; // the dead bytes are spread too thin for the selection: nothing worth a merge yet
        }
        // Debug, not info: with the debt daemon asking, a store under steady overwrites merges every few seconds.
        LOG.debug("automatic merge of {}: reclaimed {} bytes, {} segments -> {}", dir, r.bytesReclaimed(),
                r.removedSegments().size(), r.addedSegments().size());
        return true;
    }
}
