package io.caskbench.bitcask;

import io.caskbench.bitcask.format.HintFormat;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.index.KeyDir;
import io.caskbench.bitcask.index.KeyHash;
import io.caskbench.bitcask.io.ReaderGate;
import io.caskbench.bitcask.io.Segment;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;
import io.caskbench.bitcask.merge.MergeOutput;
import io.caskbench.bitcask.merge.MergeThrottle;
import io.caskbench.bitcask.merge.Relocations;
import io.caskbench.bitcask.recovery.SegmentScanner;
import io.caskbench.bitcask.recovery.StoreRepairer;
import io.caskbench.bitcask.recovery.StoreVerifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An embedded BitCask key-value store: an append-only log of segment files and an in-memory key
 * directory that points at the newest record of every key.
 *
 * <pre>{@code
 * try (BitCask db = BitCask.open(Path.of("data"))) {
 *     db.put("object1.png", bytes);
 *     byte[] v = db.get("object1.png");
 * }
 * }</pre>
 *
 * <p>Threading: every method is thread-safe. Reads take no lock; writes are serialized by one
 * lock; see the package documentation. Durability: once {@code put}, {@code delete} or
 * {@code write} returns, the change survives a {@code kill -9} of the process;
 * {@link SyncPolicy} decides when it also survives a power loss.
 */
public final class BitCask implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BitCask.class);
    /** Larger per-thread buffers are not kept, so 1000 threads cannot pin 1000 large arrays. */
    private static final int SCRATCH_KEEP = 64 << 10;
    private static final ThreadLocal<byte[]> READ_SCRATCH = ThreadLocal.withInitial(() -> new byte[512]);
    /** Per-thread buffer a put is encoded in before it takes the write lock. */
    private static final ThreadLocal<byte[]> WRITE_SCRATCH = ThreadLocal.withInitial(() -> new byte[512]);
    /** Salts of new files: random, so that no two files bind their records alike. */
    private static final java.util.random.RandomGenerator SALTS = new java.security.SecureRandom();

    private final Path dir;
    private final BitCaskOptions options;
    private final SegmentBackend backend;
    private final StoreLock storeLock;
    private final KeyDir keyDir;
    private final ReaderGate gate = new ReaderGate();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final int maxKey;
    private final int maxValue;
    private final long segmentSize;
    private final boolean readOnly;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final ReentrantLock mergeLock = new ReentrantLock();
    private volatile boolean mergeCancelled;

    /** Segments by slot; replaced whole when one is added or removed, read lock-free. */
    private volatile Segment[] slots = new Segment[16];
    /** Segments by id, oldest first; writer only. */
    private final TreeMap<Long, Segment> byId = new TreeMap<>();
    private volatile Segment active;
    private long writePos;
    private long nextId;
    private byte[] writeScratch = new byte[4096];
    private final byte[] checkScratch;
    private long appendedLsn;
    private static final java.lang.invoke.VarHandle APPENDED;

    static {
        try {
            APPENDED = java.lang.invoke.MethodHandles.lookup().findVarHandle(BitCask.class, "appendedLsn", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private volatile long durableLsn;
    private volatile boolean closed;
    private ScheduledExecutorService background;
    /** True under {@link SyncPolicy#ALWAYS}: reads must not return what a power loss could undo. */
    private final boolean syncAlways;
    /** The first force that failed; once set, every write is refused until the store is reopened. */
    private volatile BitCaskException failure;
    /** Names were created, renamed or deleted in {@code dir} since its last force. */
    private final AtomicBoolean directoryDirty = new AtomicBoolean();
    /** Sealed segments not yet forced, oldest first; forced by the hint writer, sync and merge. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Segment> unforced = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Why merges are refused until reopen (merge debris that could not be removed), or null; under mergeLock. */
    private String mergeRefusal;
    /** Merge inputs already swapped out whose files could not be deleted, oldest first; under mergeLock. */
    private final List<Path> undeletedInputs = new ArrayList<>();
    /** Opened once close() has finished, for a second caller to wait on. */
    private final java.util.concurrent.CountDownLatch closeDone = new java.util.concurrent.CountDownLatch(1);

    private BitCask(Path dir, BitCaskOptions options) {
        this.dir = dir;
        this.options = options;
        this.backend = options.segmentBackend();
        this.maxKey = options.maxKeySize();
        this.maxValue = options.maxValueSize();
        this.segmentSize = options.segmentSize();
        this.readOnly = options.readOnly();
        this.syncAlways = options.syncPolicy() == SyncPolicy.ALWAYS && !readOnly;
        this.checkScratch = new byte[RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + RecordFormat.MAX_KEY_LENGTH];
        this.keyDir = new KeyDir(options.expectedKeys());
        this.storeLock = readOnly ? null : StoreLock.acquire(dir);
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
        BitCask db = new BitCask(absolute, options);
        try {
            if (created && absolute.getParent() != null) {
                db.backend.forceDirectory(absolute.getParent()); // the store's own name must survive a power loss
            }
            db.recover();
            db.startBackground();
        } catch (RuntimeException | Error e) {
            db.abandon();
            throw e;
        }
        return db;
    }

    /** True when {@code dir} is a directory that holds a store: a data, hint or lock file. */
    public static boolean isStore(Path dir) {
        return StoreVerifier.isStore(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize());
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
        Path absolute = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        return StoreVerifier.verify(absolute, Objects.requireNonNull(depth, "depth"),
                Objects.requireNonNull(progress, "progress"), Files.isDirectory(absolute) && StoreLock.heldByWriter(absolute));
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
        Path absolute = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        Objects.requireNonNull(progress, "progress");
        if (apply) {
            Objects.requireNonNull(backupDir, "backupDir");
        }
        if (!StoreVerifier.isStore(absolute)) {
            throw new BitCaskException(absolute + " holds no BitCask store");
        }
        StoreLock lock = StoreLock.acquire(absolute);
        try {
            return StoreRepairer.repair(absolute, apply, backupDir, progress);
        } finally {
            lock.release();
        }
    }

    // ------------------------------------------------------------------ reads

    /** The value of {@code key}, or null when it is absent, deleted or expired. */
    public byte[] get(byte[] key) {
        checkKey(key);
        return lookup(key, true);
    }

    /** The value of a UTF-8 key, or null. */
    public byte[] get(String key) {
        return get(utf8(key));
    }

    /** True when {@code key} has a live value. */
    public boolean containsKey(byte[] key) {
        checkKey(key);
        return lookup(key, false) != null;
    }

    /** True when the UTF-8 key has a live value. */
    public boolean containsKey(String key) {
        return containsKey(utf8(key));
    }

    /** Marks a found record in {@link #read} when the caller wants no copy of its value. */
    private static final byte[] PRESENT = new byte[0];
    /** Marks a found record that a power loss could still undo; the reader waits for it outside the gate. */
    private static final byte[] NOT_DURABLE = new byte[0];

    /**
     * A point read. Under {@code ALWAYS} it never returns what a power loss could still undo: when
     * the record it found is not yet forced, it leaves the reader gate (which close and merge wait
     * on), joins the group commit, and reads again.
     */
    private byte[] lookup(byte[] key, boolean copy) {
        int hash = KeyHash.hash(key);
        while (true) {
            byte[] result;
            int token = gate.enter();
            try {
                ensureOpen();
                result = readOutsideBatches(key, hash, copy);
            } finally {
                gate.exit(token);
            }
            if (result != NOT_DURABLE) {
                return result;
            }
            syncTo((long) APPENDED.getAcquire(this));
        }
    }

    /**
     * A point read that never sees half a batch: the batch writer makes {@code batchVersion} odd
     * while it publishes a batch's keys, and a read that overlapped a publication is repeated.
     * Once a read has seen one key of a batch, every later read sees all of them.
     */
    private byte[] readOutsideBatches(byte[] key, int hash, boolean copy) {
        for (int spins = 0; ; spins++) {
            long v = batchVersion.get();
            if ((v & 1) != 0) {
                backOff(spins);
                continue;
            }
            byte[] result = read(key, hash, copy);
            if (batchVersion.get() == v) {
                return result;
            }
        }
    }

    /** Spins, then yields: a batch publication is short, but its writer may have lost its core. */
    private static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /**
     * Probes the key directory and reads the record; {@code PRESENT} instead of a copy when !copy,
     * {@code NOT_DURABLE} when the record must first be forced.
     */
    private byte[] read(byte[] key, int hash, boolean copy) {
        retry:
        while (true) {
            KeyDir.Table t = keyDir.table();
            for (int i = t.first(hash); ; i = t.next(i)) {
                long loc = t.location(i);
                if (loc == 0) {
                    return null;
                }
                if (t.hash(i) != hash || loc == KeyDir.DELETED) {
                    continue;
                }
                int len = t.length(i);
                Segment seg = segmentAt(KeyDir.segmentSlot(loc));
                if (seg == null || len <= 0 || len > RecordFormat.MAX_RECORD_LENGTH) {
                    if (moved(t, i, loc, len)) {
                        continue retry;
                    }
                    throw corrupt(seg, loc, "index entry points nowhere (len " + len + ", seg " + seg + ")");
                }
                byte[] buf = scratch(READ_SCRATCH, len);
                long offset = KeyDir.offset(loc);
                try {
                    seg.reader().read(offset, buf, 0, len);
                } catch (BitCaskException e) {
                    if (moved(t, i, loc, len)) {
                        continue retry;
                    }
                    throw e;
                }
                if (storedLength(buf, 0) != len) {
                    if (moved(t, i, loc, len)) {
                        continue retry;
                    }
                    throw corrupt(seg, loc, "record header does not match its index entry");
                }
                int flags = RecordFormat.flags(buf, 0);
                int keyOff = RecordFormat.keyOffset(flags);
                if (RecordFormat.keyLength(buf, 0) != key.length
                        || !Arrays.equals(buf, keyOff, keyOff + key.length, key, 0, key.length)) {
                    continue; // another key with the same hash
                }
                if (!RecordFormat.crcMatches(buf, 0, len, seg.salt(), offset)) {
                    if (moved(t, i, loc, len)) {
                        continue retry;
                    }
                    throw corrupt(seg, loc, "CRC mismatch");
                }
                if (syncAlways && offset + len > seg.durableEnd()) {
                    return NOT_DURABLE;
                }
                if (KeyDir.isDeleted(loc) || (flags & RecordFormat.TOMBSTONE) != 0) {
                    return null;
                }
                if ((flags & RecordFormat.EXPIRES) != 0 && RecordFormat.expiresAt(buf, 0) <= now()) {
                    return null;
                }
                return copy ? Arrays.copyOfRange(buf, keyOff + key.length, len) : PRESENT;
            }
        }
    }

    /** Length of the record at {@code buf[off]} as its header states it, whether it stands alone or in a batch; -1 when implausible. */
    private static int storedLength(byte[] buf, int off) {
        return RecordFormat.plausibleLength(buf, off, (RecordFormat.flags(buf, off) & RecordFormat.IN_BATCH) != 0);
    }

    /**
     * True when the slot no longer says what the reader read from it, an update of it is under
     * way, or a newer table replaced it: the reader lost a race and reads again.
     */
    private boolean moved(KeyDir.Table t, int i, long loc, int len) {
        return !t.unchanged(i, loc, len) || keyDir.table() != t;
    }

    /** This thread's buffer from {@code cache}, grown to {@code len}; a fresh array above {@link #SCRATCH_KEEP}. */
    private static byte[] scratch(ThreadLocal<byte[]> cache, int len) {
        if (len > SCRATCH_KEEP) {
            return new byte[len];
        }
        byte[] b = cache.get();
        if (b.length < len) {
            b = new byte[Math.max(len, Math.min(b.length * 2, SCRATCH_KEEP))];
            cache.set(b);
        }
        return b;
    }

    private Segment segmentAt(int slot) {
        Segment[] s = slots;
        return slot < s.length ? s[slot] : null;
    }

    private BitCaskCorruptionException corrupt(Segment seg, long loc, String what) {
        return new BitCaskCorruptionException((seg == null ? "segment slot " + KeyDir.segmentSlot(loc) : seg.file().toString())
                + " at offset " + KeyDir.offset(loc) + ": " + what);
    }

    // ----------------------------------------------------------------- writes

    /**
     * Stores {@code value} under {@code key}, replacing any previous value.
     *
     * @throws NullPointerException     when key or value is null
     * @throws IllegalArgumentException when the key is empty or too long, or the value too long
     * @throws IllegalStateException    when the store is closed
     * @throws BitCaskException         when the write fails (for example on a full disk); the
     *                                  store is unchanged then
     */
    public void put(byte[] key, byte[] value) {
        checkNewKey(key);
        checkValue(value);
        long lsn = append(key, value, 0, 0L);
        afterWrite(lsn);
    }

    /** Stores {@code value} under a UTF-8 key. */
    public void put(String key, byte[] value) {
        put(utf8(key), value);
    }

    /**
     * Stores {@code value} under {@code key} until {@code ttl} has passed; after that the key
     * reads as absent, also after reopen, and merge drops it.
     */
    public void put(byte[] key, byte[] value, Duration ttl) {
        checkNewKey(key);
        checkValue(value);
        long expiresAt = expiresAt(now(), ttlMillis(ttl));
        long lsn = append(key, value, RecordFormat.EXPIRES, expiresAt);
        afterWrite(lsn);
    }

    /** Stores {@code value} under a UTF-8 key until {@code ttl} has passed. */
    public void put(String key, byte[] value, Duration ttl) {
        put(utf8(key), value, ttl);
    }

    /**
     * Deletes {@code key}.
     *
     * @return true when a live value was removed
     */
    public boolean delete(byte[] key) {
        checkKey(key);
        long lsn;
        boolean removed;
        writeLock.lock();
        try {
            ensureWritable();
            int hash = KeyHash.hash(key);
            long current = currentLocation(key, hash);
            if (current == 0 || KeyDir.isDeleted(current)) {
                // Under ALWAYS, a "false" must not rest on a tombstone that a power loss could undo.
                lsn = current != 0 && syncAlways && !durable(current) ? (long) APPENDED.getAcquire(this) : 0;
                removed = false;
            } else {
                removed = !expired(current);
                lsn = appendLocked(key, null, RecordFormat.TOMBSTONE, 0L, hash);
            }
        } finally {
            writeLock.unlock();
        }
        if (lsn != 0) {
            afterWrite(lsn);
        }
        return removed;
    }

    /** Deletes a UTF-8 key; true when a live value was removed. */
    public boolean delete(String key) {
        return delete(utf8(key));
    }

    /**
     * Applies every operation of {@code batch} atomically: after a crash all of them are there or
     * none is, and no reader sees some without the others.
     */
    public void write(WriteBatch batch) {
        Objects.requireNonNull(batch, "batch");
        List<WriteBatch.Op> ops = batch.ops();
        if (ops.isEmpty()) {
            ensureWritable();
            return;
        }
        long total = RecordFormat.BATCH_HEADER_SIZE;
        for (WriteBatch.Op op : ops) {
            if (op.isDelete()) {
                checkKey(op.key());
            } else {
                checkNewKey(op.key());
                checkValue(op.value());
            }
            total += RecordFormat.recordLength(op.ttlMillis() > 0 ? RecordFormat.EXPIRES : 0, op.key().length,
                    op.isDelete() ? 0 : op.value().length);
        }
        if (total + RecordFormat.FILE_HEADER_SIZE > segmentSize) {
            throw new IllegalArgumentException("batch of " + total + " bytes does not fit in a segment of " + segmentSize);
        }
        long lsn;
        writeLock.lock();
        try {
            ensureWritable();
            lsn = appendBatchLocked(ops, (int) total);
        } finally {
            writeLock.unlock();
        }
        afterWrite(lsn);
    }

    /**
     * Appends a put. The record is encoded and checksummed before the write lock is taken, so two
     * cores can do that part in parallel; under the lock are only the write and the index update.
     *
     * <p>The lock barges (a running thread that releases it may take it again at once). With far
     * more threads than cores that is what keeps throughput up: the thread holding a core does many
     * puts per time slice. A queue that hands each put to a combiner thread instead costs a context
     * switch per put; measured with 1000 threads on 2 cores it ran 20x slower than this lock.
     */
    private long append(byte[] key, byte[] value, int flags, long expiresAt) {
        int hash = KeyHash.hash(key);
        int len = RecordFormat.recordLength(flags, key.length, value.length);
        byte[] buf = scratch(WRITE_SCRATCH, len);
        RecordFormat.encode(buf, 0, now(), flags, expiresAt, key, value);
        writeLock.lock();
        try {
            ensureWritable();
            return appendEncodedLocked(buf, len, flags, key, hash);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The key's slot location: 0 when it has no slot, the tombstone's location with
     * {@link KeyDir#DELETED} when deleted, else its record's. Leaves that record's header in
     * {@code checkScratch}. Writer only.
     */
    private long currentLocation(byte[] key, int hash) {
        KeyDir.Table t = keyDir.table();
        for (int i = t.first(hash); ; i = t.next(i)) {
            long loc = t.location(i);
            if (loc == 0) {
                return 0;
            }
            if (t.hash(i) == hash && loc != KeyDir.DELETED && sameKey(loc & ~KeyDir.DELETED, t.length(i), key, 0, key.length)) {
                return loc;
            }
        }
    }

    /** True when the live record whose header {@link #currentLocation} left in checkScratch has expired. */
    private boolean expired(long location) {
        long expiresAt = RecordFormat.expiresAt(checkScratch, 0);
        return expiresAt != 0 && expiresAt <= now();
    }

    /** True when the record at {@code location} is known to be on the device. */
    private boolean durable(long location) {
        Segment seg = segmentAt(KeyDir.segmentSlot(location));
        return seg == null || KeyDir.offset(location) < seg.durableEnd();
    }

    private long appendLocked(byte[] key, byte[] value, int flags, long expiresAt, int hash) {
        int len = RecordFormat.recordLength(flags, key.length, value == null ? 0 : value.length);
        byte[] buf = writeBuffer(len);
        RecordFormat.encode(buf, 0, now(), flags, expiresAt, key, value);
        return appendEncodedLocked(buf, len, flags, key, hash);
    }

    /**
     * Writes a record already encoded in {@code buf}, then points the key directory at it. The
     * appended count moves before the directory does, so a reader who finds the record and then
     * reads the count waits for a force that covers it. Writer only.
     */
    private long appendEncodedLocked(byte[] buf, int len, int flags, byte[] key, int hash) {
        ensureRoomForKeys(1);
        long offset = reserve(len);
        Segment seg = active;
        RecordFormat.seal(buf, 0, seg.salt(), offset);
        seg.writer().write(offset, buf, 0, len);
        writePos = offset + len;
        seg.end(writePos);
        long lsn = advanceLsn(len);
        index(seg, offset, len, flags, key, hash);
        return lsn;
    }

    /** Refuses a write, before any byte of it reaches the disk, that the key directory could not hold. */
    private void ensureRoomForKeys(int keys) {
        if (!keyDir.makeRoom(keys)) {
            throw new BitCaskException("the key directory of " + dir + " is full at " + keyDir.size()
                    + " keys; delete keys or split the data over several stores");
        }
    }

    /** Counts appended bytes; release store, as only the writer writes it. */
    private long advanceLsn(int len) {
        long lsn = appendedLsn + len;
        APPENDED.setRelease(this, lsn);
        return lsn;
    }

    private long appendBatchLocked(List<WriteBatch.Op> ops, int total) {
        ensureRoomForKeys(ops.size()); // as if every member were a new key
        long offset = reserve(total);
        Segment seg = active;
        byte[] buf = writeBuffer(total);
        long now = now();
        int headerLen = RecordFormat.BATCH_HEADER_SIZE;
        int p = headerLen;
        for (WriteBatch.Op op : ops) {
            int flags = RecordFormat.IN_BATCH | (op.isDelete() ? RecordFormat.TOMBSTONE : (op.ttlMillis() > 0 ? RecordFormat.EXPIRES : 0));
            int len = RecordFormat.encode(buf, p, now, flags, op.ttlMillis() > 0 ? expiresAt(now, op.ttlMillis()) : 0L, op.key(), op.value());
            RecordFormat.seal(buf, p, seg.salt(), offset + p);
            p += len;
        }
        RecordFormat.encodeBatchHeader(buf, 0, now, ops.size(), total - headerLen, RecordFormat.crc(buf, headerLen, total - headerLen));
        RecordFormat.seal(buf, 0, seg.salt(), offset);
        seg.writer().write(offset, buf, 0, total);
        writePos = offset + total;
        seg.end(writePos);
        long lsn = advanceLsn(total);
        // Readers never see half a batch: they repeat a read that overlapped this publication.
        batchVersion.incrementAndGet();
        try {
            p = headerLen;
            for (WriteBatch.Op op : ops) {
                int len = RecordFormat.recordLength(RecordFormat.flags(buf, p), op.key().length,
                        RecordFormat.valueLength(buf, p));
                index(seg, offset + p, len, RecordFormat.flags(buf, p), op.key(), KeyHash.hash(op.key()));
                p += len;
            }
        } finally {
            batchVersion.incrementAndGet();
        }
        return lsn;
    }

    private final java.util.concurrent.atomic.AtomicLong batchVersion = new java.util.concurrent.atomic.AtomicLong();

    /** Points the key directory at a record just written, and keeps the byte accounting. */
    private void index(Segment seg, long offset, int len, int flags, byte[] key, int hash) {
        index(seg, offset, len, flags, key, 0, key.length, hash);
    }

    private void index(Segment seg, long offset, int len, int flags, byte[] key, int keyOff, int keyLength, int hash) {
        long loc = KeyDir.location(seg.slot(), offset);
        long previous;
        if ((flags & RecordFormat.TOMBSTONE) != 0) {
            previous = keyDir.delete(hash, key, keyOff, keyLength, loc, len, keyCheck);
        } else {
            previous = keyDir.put(hash, key, keyOff, keyLength, loc, len, keyCheck);
            seg.addLive(len);
        }
        if (previous != 0 && !KeyDir.isDeleted(previous)) {
            Segment old = segmentAt(KeyDir.segmentSlot(previous));
            if (old != null) {
                old.addLive(-keyDir.replacedLength());
            }
        }
    }

    private byte[] writeBuffer(int len) {
        if (writeScratch.length < len) {
            writeScratch = new byte[Math.max(len, writeScratch.length * 2)];
        }
        return writeScratch;
    }

    /** Offset for a record of {@code len} bytes in the active segment, rolling over when full. */
    private long reserve(int len) {
        if (writePos + len > segmentSize) {
            rollover();
        }
        return writePos;
    }

    /** Compares the key of the record at {@code location} with {@code key}; leaves its header in checkScratch. */
    private final KeyDir.KeyCheck keyCheck = this::sameKey;

    private boolean sameKey(long location, int length, byte[] key, int keyOff, int keyLength) {
        Segment seg = segmentAt(KeyDir.segmentSlot(location));
        if (seg == null) {
            return false;
        }
        int want = Math.min(length, RecordFormat.HEADER_SIZE + RecordFormat.EXPIRY_SIZE + keyLength);
        if (want < RecordFormat.HEADER_SIZE) {
            return false;
        }
        seg.reader().read(KeyDir.offset(location), checkScratch, 0, want);
        int recordKeyOff = RecordFormat.keyOffset(RecordFormat.flags(checkScratch, 0));
        return RecordFormat.keyLength(checkScratch, 0) == keyLength && recordKeyOff + keyLength <= want
                && Arrays.equals(checkScratch, recordKeyOff, recordKeyOff + keyLength, key, keyOff, keyOff + keyLength);
    }

    private void afterWrite(long lsn) {
        if (options.syncPolicy() == SyncPolicy.ALWAYS) {
            syncTo(lsn);
        }
        scheduleHintsIfDue();
    }

    /** Starts the hint writer when the oldest sealed segment without a hint is durable; cheap when none is. */
    private void scheduleHintsIfDue() {
        Segment next = pendingHints.peek();
        if (next != null && next.durable() && hintTaskQueued.compareAndSet(false, true)) {
            scheduleHints();
        }
    }

    /**
     * Writes sealed segments' hint files off the put path: building one sorts and rescans a whole
     * segment, which cost about a fifth of single-threaded put time when the put after each rollover
     * did it. Daemon, created at the first rollover; a hint not written before a crash only means a
     * scan at the next open.
     */
    private synchronized void scheduleHints() {
        if (closing.get()) {
            hintTaskQueued.set(false);
            return; // close writes them
        }
        if (hintWriter == null) {
            hintWriter = Executors.newSingleThreadExecutor(daemonThreads("hints"));
        }
        hintWriter.execute(() -> {
            hintTaskQueued.set(false);
            writePendingHints();
        });
    }

    /** Stops the hint writer and waits for a hint file it is writing. Close only. */
    private void stopHintWriter() {
        java.util.concurrent.ExecutorService writer;
        synchronized (this) {
            writer = hintWriter;
        }
        if (writer == null) {
            return;
        }
        writer.shutdown();
        uninterruptibly(() -> {
            while (!writer.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("still waiting for the hint writer of {}", dir);
            }
        });
    }

    /** Threads for this store's executors: daemons, named after the store's directory. */
    private java.util.concurrent.ThreadFactory daemonThreads(String role) {
        return r -> {
            Thread t = new Thread(r, "bitcask-" + role + "-" + dir.getFileName());
            t.setDaemon(true);
            return t;
        };
    }

    /** A blocking wait that close and a racing writer must finish; an interrupt is kept for later. */
    private interface BlockingWait {
        void await() throws InterruptedException;
    }

    private static void uninterruptibly(BlockingWait wait) {
        boolean interrupted = false;
        while (true) {
            try {
                wait.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private java.util.concurrent.ExecutorService hintWriter;
    private final AtomicBoolean hintTaskQueued = new AtomicBoolean();

    /**
     * Forces everything appended up to {@code lsn}. Concurrent callers share one force (group
     * commit): one caller at a time leads and forces all that has been appended by then; the others
     * park until a force covers their records.
     *
     * <p>After its force the leader wakes only the waiters it covered, plus one that it did not, to
     * lead the next force. A lock's queue would instead wake waiters one by one, and waking every
     * waiter after each force costs 1000 context switches per force with 1000 writers.
     */
    private void syncTo(long lsn) {
        SyncWaiter me = null;
        try {
            while (durableLsn < lsn) {
                BitCaskException failed = failure;
                if (failed != null) {
                    throw refused(failed);
                }
                if (closed) {
                    awaitCloseForce(lsn);
                    break;
                }
                if (syncLeader.compareAndSet(false, true)) {
                    if (me != null) {
                        dequeue(me);
                        me = null;
                    }
                    try {
                        if (durableLsn < lsn && !closed) {
                            forceAppended();
                            scheduleHintsIfDue();
                        }
                    } catch (RuntimeException e) {
                        if (!closed) {
                            throw fail(e);
                        }
                        // close() closed the segment under us; its own force decides (next iteration)
                    } finally {
                        syncLeader.set(false);
                        wakeSyncWaiters();
                    }
                } else if (me == null) {
                    // Queue first, then look at the leader again: a leader that finished in between
                    // has either seen us in the queue or left the lead free for the next iteration.
                    me = new SyncWaiter(Thread.currentThread(), lsn);
                    syncWaiters.add(me);
                } else {
                    LockSupport.parkNanos(this, 10_000_000); // a guard only; a leader unparks us
                }
            }
        } finally {
            if (me != null) {
                dequeue(me);
            }
        }
    }

    /**
     * Forces every record appended so far: sealed segments not yet forced (oldest first), the
     * active segment, then the directory if names changed in it. The group-commit leader only.
     */
    private void forceAppended() {
        long target = (long) APPENDED.getAcquire(this); // before active: records up to target are in it or in a sealed one
        Segment seg = active;
        long end = seg.end();
        forceSealed();
        // Inside the gate: a merge may have sealed, copied and retired this segment meanwhile, and
        // must not unmap it under the force. One it retired was forced before it was copied.
        int token = gate.enter();
        try {
            if (segmentAt(seg.slot()) == seg) {
                seg.writer().force();
            }
        } finally {
            gate.exit(token);
        }
        forceDirectoryIfDirty();
        seg.durableTo(end); // only now: under ALWAYS a reader may return these records once they are durable
        if (target > durableLsn) {
            durableLsn = target;
        }
    }

    /** Forces sealed segments that are not yet durable; inside the gate, so a merge cannot unmap one meanwhile. */
    private void forceSealed() {
        if (unforced.isEmpty()) {
            return;
        }
        int token = gate.enter();
        try {
            for (Segment seg; (seg = unforced.peek()) != null; ) {
                if (segmentAt(seg.slot()) == seg && !seg.durable()) {
                    seg.force(backend);
                }
                unforced.remove(seg);
            }
        } finally {
            gate.exit(token);
        }
    }

    private void forceDirectoryIfDirty() {
        if (directoryDirty.getAndSet(false)) {
            try {
                backend.forceDirectory(dir);
            } catch (RuntimeException e) {
                directoryDirty.set(true);
                throw e;
            }
        }
    }

    /**
     * Records a failed force and returns the exception to throw. On Linux a failed fsync may have
     * dropped the dirty pages it could not write, and a later fsync would then report success for
     * data that is gone; so, as PostgreSQL does since 2018, the store takes no more writes until
     * it is reopened and recovery has read back what really is on the disk.
     */
    private BitCaskException fail(RuntimeException e) {
        BitCaskException cause = e instanceof BitCaskException b ? b : new BitCaskException(e.toString(), e);
        synchronized (this) {
            if (failure == null) {
                failure = cause;
                LOG.error("{}: a force failed ({}); the store refuses writes until it is reopened", dir, e.toString());
            }
        }
        return new BitCaskException("a force of " + dir + " failed; this write may not be durable, and the store "
                + "refuses writes until it is reopened: " + e.getMessage(), e);
    }

    private BitCaskException refused(BitCaskException failed) {
        return new BitCaskException("store " + dir + " refuses writes since a force failed (" + failed.getMessage()
                + "); close and reopen it", failed);
    }

    /**
     * A write that was appended before close but not yet forced waits for close's own force, so that
     * under {@code ALWAYS} no put returns unforced even when it races {@code close()}.
     */
    private void awaitCloseForce(long lsn) {
        uninterruptibly(closeForced::await);
        if (durableLsn < lsn) {
            throw new BitCaskException("store " + dir + " was closed and its final force failed; this write may not be durable");
        }
    }

    /** Opened when close() has forced and closed every segment, or failed to. */
    private final java.util.concurrent.CountDownLatch closeForced = new java.util.concurrent.CountDownLatch(1);

    /** Removes a waiter the leader has not removed already (a queue removal is a linear search). */
    private void dequeue(SyncWaiter w) {
        if (!w.dequeued) {
            syncWaiters.remove(w);
        }
    }

    /** Unparks the waiters the last force covered, and the first one it did not, to lead the next. */
    private void wakeSyncWaiters() {
        long durable = durableLsn;
        SyncWaiter next = null;
        for (var it = syncWaiters.iterator(); it.hasNext(); ) {
            SyncWaiter w = it.next();
            if (w.lsn <= durable || closed) {
                w.dequeued = true;
                it.remove();
                LockSupport.unpark(w.thread);
            } else if (next == null) {
                next = w;
            }
        }
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
    }

    /** A caller of {@link #syncTo} parked until its records are forced. */
    private static final class SyncWaiter {
        final Thread thread;
        final long lsn;
        volatile boolean dequeued;

        SyncWaiter(Thread thread, long lsn) {
            this.thread = thread;
            this.lsn = lsn;
        }
    }

    /** Whether a caller of {@link #syncTo} is forcing now. */
    private final AtomicBoolean syncLeader = new AtomicBoolean();
    /** Callers of {@link #syncTo} waiting for a force. */
    private final java.util.concurrent.ConcurrentLinkedQueue<SyncWaiter> syncWaiters = new java.util.concurrent.ConcurrentLinkedQueue<>();

    // ---------------------------------------------------------------- segments

    /**
     * Seals the active segment and opens the next. Under {@code ALWAYS} the sealed segment and the
     * new file's name are forced before the write that needs the new segment goes on; otherwise
     * the hint writer forces the sealed one (before its hint), and the next sync forces both.
     */
    private void rollover() {
        Segment old = active;
        old.writer().truncate(writePos);
        if (syncAlways) {
            try {
                old.force(backend);
            } catch (RuntimeException e) {
                throw fail(e);
            }
        }
        Segment created = createSegment(nextId);
        nextId++;
        if (syncAlways) {
            try {
                backend.forceDirectory(dir);
            } catch (RuntimeException e) {
                throw fail(e);
            }
        } else {
            directoryDirty.set(true);
            unforced.add(old);
        }
        active = created;
        writePos = created.end();
        pendingHints.add(old);
    }

    /** Sealed segments whose hint file is still to be written. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Segment> pendingHints = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** Creates, heads and registers a new, empty segment; on failure nothing is left behind but a file recovery skips. */
    private Segment createSegment(long id) {
        Path file = SegmentFiles.dataFile(dir, id);
        long salt = newSalt();
        SegmentWriter w = backend.openWritable(file, segmentSize);
        int slot = -1;
        try {
            byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
            RecordFormat.encodeFileHeader(header, id, salt);
            w.write(0, header, 0, header.length);
            slot = allocateSlot();
        } catch (RuntimeException e) {
            w.close();
            try {
                backend.delete(file);
            } catch (RuntimeException ignored) {
                // a headerless file is skipped by recovery, and reused or replaced by the next open
            }
            throw e;
        }
        Segment seg = new Segment(id, salt, slot, file, w, w, RecordFormat.FILE_HEADER_SIZE);
        register(seg);
        return seg;
    }

    private synchronized int allocateSlot() {
        Segment[] s = slots;
        for (int i = 0; i < s.length; i++) {
            if (s[i] == null && !reservedSlots.contains(i)) {
                reservedSlots.add(i);
                return i;
            }
        }
        if (s.length > KeyDir.MAX_SEGMENT_SLOT) {
            throw new BitCaskException("too many segments in " + dir + "; use a larger segmentSize");
        }
        int slot = s.length;
        slots = Arrays.copyOf(s, s.length * 2);
        reservedSlots.add(slot);
        return slot;
    }

    private final java.util.Set<Integer> reservedSlots = new java.util.HashSet<>();

    private synchronized void register(Segment seg) {
        Segment[] s = slots.clone();
        s[seg.slot()] = seg;
        slots = s;
        reservedSlots.remove(seg.slot());
        byId.put(seg.id(), seg);
    }

    /**
     * Writes the hint files of sealed segments whose data is durable, oldest first; outside the
     * write lock. A hint must never reach the disk before the records it lists, and forcing a
     * sealed segment just for its hint cost a quarter of MAPPED put throughput on two cores; so a
     * hint waits for the force that sync, the interval, a merge or close makes anyway (under
     * ALWAYS, the rollover's). A crash before that costs a scan at the next open, never a wrong hint.
     */
    private void writePendingHints() {
        // Inside the gate before taking a segment: a merge makes its inputs unreachable (out of
        // this queue and the slot table) before it waits at the gate and unmaps them.
        int token = gate.enter();
        try {
            for (Segment seg; !closed && failure == null && (seg = pendingHints.peek()) != null; ) {
                if (segmentAt(seg.slot()) != seg) {
                    pendingHints.remove(seg); // merged away meanwhile
                    continue;
                }
                if (!seg.durable()) {
                    return; // sealed segments are forced oldest first, so the rest wait too
                }
                pendingHints.remove(seg);
                writeHint(seg);
            }
        } finally {
            gate.exit(token);
        }
    }

    /**
     * Writes the hint file of a segment whose content up to its end will not change, and whose
     * data the caller forced first: a hint must never reach the disk before the records it lists.
     * A failure only costs a scan at the next open, so it is logged, not thrown.
     */
    void writeHint(Segment seg) {
        try {
            long end = seg.end();
            HintFormat.Builder hint = new HintFormat.Builder(seg.id(), seg.salt());
            new SegmentScanner(seg.reader(), seg.file(), end, seg.salt())
                    .scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, length) -> hint.add(offset, buf, off, length));
            backend.writeFile(SegmentFiles.hintFile(dir, seg.id()), hint.finish(end));
            directoryDirty.set(true);
        } catch (RuntimeException e) {
            LOG.warn("cannot write hint file for {}: {}; open will scan it instead", seg.file(), e.toString());
        }
    }

    // ---------------------------------------------------------------- recovery

    private void recover() {
        for (Path tmp : SegmentFiles.tempFiles(dir)) {
            if (!readOnly) {
                try {
                    backend.delete(tmp);
                    directoryDirty.set(true);
                    LOG.debug("removed {} left by an interrupted write", tmp);
                } catch (BitCaskException e) {
                    LOG.warn("cannot remove {}: {}", tmp, e.getMessage());
                }
            }
        }
        List<Long> ids = SegmentFiles.dataIds(dir);
        long started = System.nanoTime();
        keyDir.keepDeleted(this::tombstoneNotDurable);
        keyDir.reserve(Math.min(KeyDir.MAX_KEYS, Math.max(options.expectedKeys(), hintedEntries(ids))));
        int fromHints = 0;
        for (int n = 0; n < ids.size(); n++) {
            long id = ids.get(n);
            boolean newest = n == ids.size() - 1;
            try {
                if (loadSegment(id, newest)) {
                    fromHints++;
                }
            } catch (IllegalStateException full) {
                throw new BitCaskException(dir + " holds more keys than one key directory can (" + KeyDir.MAX_KEYS + ")", full);
            }
        }
        nextId = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
        if (!readOnly) {
            if (active == null) {
                active = createSegment(nextId++);
                writePos = active.end();
                directoryDirty.set(true);
            }
            if (syncAlways) {
                forceSealed();
                active.force(backend);
            }
            forceDirectoryIfDirty(); // whatever open created or removed is durable before a write is acknowledged
        }
        LOG.debug("opened {}: {} segments ({} from hints), {} keys in {} ms", dir, ids.size(), fromHints,
                keyDir.size(), (System.nanoTime() - started) / 1_000_000);
    }

    /** Under {@code ALWAYS}, a rebuild of the key directory keeps a tombstone that a reader must still wait for. */
    private boolean tombstoneNotDurable(long location) {
        return syncAlways && !durable(location);
    }

    /** Entries the hint files claim to hold (their footers): the directory is sized for them up front. */
    private long hintedEntries(List<Long> ids) {
        long total = 0;
        byte[] footer = new byte[HintFormat.FOOTER_SIZE];
        for (long id : ids) {
            Path hint = SegmentFiles.hintFile(dir, id);
            try (var ch = java.nio.channels.FileChannel.open(hint, java.nio.file.StandardOpenOption.READ)) {
                long size = ch.size();
                if (size >= HintFormat.HEADER_SIZE + HintFormat.FOOTER_SIZE) {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(footer);
                    while (b.hasRemaining() && ch.read(b, size - HintFormat.FOOTER_SIZE + b.position()) > 0) {
                        // read the footer whole
                    }
                    total += Math.max(0, Math.min(RecordFormat.getInt(footer, 0), size / HintFormat.ENTRY_SIZE));
                }
            } catch (IOException absentOrUnreadable) {
                // only a size estimate: the directory grows as the segment is loaded
            }
        }
        return total;
    }

    /** Loads one data file into the key directory; returns true when its hint file was used. */
    private boolean loadSegment(long id, boolean newest) {
        Path file = SegmentFiles.dataFile(dir, id);
        SegmentReader reader = backend.openReadOnly(file);
        long length;
        long salt;
        try {
            length = reader.size();
            salt = readSalt(reader, file, id, length);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
        if (salt == NO_HEADER) {
            reader.close();
            if (newest && !readOnly && length <= RecordFormat.FILE_HEADER_SIZE) {
                // A segment whose creation was cut short holds no record: start it again.
                Segment fresh = createSegment(id);
                active = fresh;
                writePos = fresh.end();
                directoryDirty.set(true);
            }
            return false;
        }
        int slot;
        try {
            slot = allocateSlot();
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
        Segment seg = new Segment(id, salt, slot, file, reader, null, length);
        register(seg);
        long scanFrom = RecordFormat.FILE_HEADER_SIZE;
        boolean hinted = false;
        byte[] hint = backend.readFile(SegmentFiles.hintFile(dir, id));
        if (hint != null) {
            long covered = applyHint(seg, hint, length);
            if (covered > 0) {
                scanFrom = covered;
                hinted = true;
            }
        }
        long end = Math.max(scanFrom, Math.min(length, RecordFormat.FILE_HEADER_SIZE));
        if (scanFrom < length) {
            SegmentScanner.Result r = new SegmentScanner(reader, file, length, salt)
                    .scan(scanFrom, (offset, buf, off, len) -> applyRecord(seg, offset, buf, off, len));
            end = r.end();
        }
        seg.end(end);
        if (newest && !readOnly) {
            // The newest segment stays the active one: reopen it for writing, cut at its valid end.
            reader.close();
            SegmentWriter w = backend.openWritable(file, segmentSize);
            Segment writable = new Segment(id, salt, seg.slot(), file, w, w, end);
            writable.addLive(seg.liveBytes());
            replace(seg, writable); // registered before anything can fail, so abandon() closes it
            if (w.size() > end) {
                w.truncate(end);
            }
            active = writable;
            writePos = end;
        } else if (!readOnly) {
            unforced.add(seg);
        }
        return hinted;
    }

    /** Salt of a file whose header no copy of can be read: the file is left as it is, and skipped. */
    private static final long NO_HEADER = 0;

    /**
     * The salt of a data file's header, from whichever copy is intact; {@link #NO_HEADER} when
     * neither is, so its records cannot be checked. Such a file is never truncated or merged: a
     * newest one that holds nothing beyond a header's length was cut short at creation, and anything
     * longer is kept for a person to look at, with a WARN.
     *
     * @throws BitCaskException when the file is of another format version
     */
    private long readSalt(SegmentReader reader, Path file, long id, long length) {
        byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
        reader.read(0, header, 0, (int) Math.min(length, header.length));
        int at = length >= RecordFormat.FILE_HEADER_SIZE ? RecordFormat.intactHeaderBlock(header) : -1;
        if (at < 0 && RecordFormat.isVersionOneHeader(header)) {
            throw new BitCaskException(file + " is in format version 1; this version of bitcask-core reads version "
                    + RecordFormat.VERSION + " only. Copy the data into a new store with the version that wrote it");
        }
        if (at < 0) {
            if (length > RecordFormat.FILE_HEADER_SIZE) {
                LOG.warn("{}: neither copy of the file header can be read, so none of its records can be checked; "
                        + "the file is left as it is and skipped", file);
            }
            return NO_HEADER;
        }
        int version = RecordFormat.headerVersion(header, at);
        if (version != RecordFormat.VERSION) {
            throw new BitCaskException(file + " is in format version " + version + "; this version of bitcask-core reads version "
                    + RecordFormat.VERSION + (version > RecordFormat.VERSION ? ": open it with a newer release" : ""));
        }
        if (RecordFormat.headerSegmentId(header, at) != id) {
            LOG.warn("{}: its header names segment {}; its records are read all the same", file, RecordFormat.headerSegmentId(header, at));
        }
        long salt = RecordFormat.headerSalt(header, at);
        if (salt == NO_HEADER) {
            LOG.warn("{}: its header has no salt, so it was not written by this store; the file is skipped", file);
        }
        return salt;
    }

    private synchronized void replace(Segment old, Segment fresh) {
        Segment[] s = slots.clone();
        s[old.slot()] = fresh;
        slots = s;
        byId.put(fresh.id(), fresh);
    }

    /** Applies a hint file; returns the data offset it covers, or -1 when it was unusable. */
    private long applyHint(Segment seg, byte[] hint, long dataLength) {
        HintFormat.Validation v = HintFormat.validate(hint, seg.id(), seg.salt(), dataLength);
        if (!v.usable()) {
            LOG.warn("{}: unusable hint file ({}); scanning {} instead", SegmentFiles.hintFile(dir, seg.id()), v.reason(), seg.file());
            return -1;
        }
        HintFormat.forEach(hint, (offset, recordLength, flags, expiresAt, buf, keyOff, keyLength) ->
                index(seg, offset, recordLength, flags, buf, keyOff, keyLength, KeyHash.hash(buf, keyOff, keyLength)));
        return v.covered();
    }

    private void applyRecord(Segment seg, long offset, byte[] buf, int off, int len) {
        int flags = RecordFormat.flags(buf, off);
        int keyOff = off + RecordFormat.keyOffset(flags);
        int keyLength = RecordFormat.keyLength(buf, off);
        index(seg, offset, len, flags, buf, keyOff, keyLength, KeyHash.hash(buf, keyOff, keyLength));
    }

    // ------------------------------------------------------------- background

    private void startBackground() {
        boolean interval = options.syncPolicy() == SyncPolicy.INTERVAL && !readOnly;
        boolean autoMerge = options.autoMerge() && !readOnly;
        if (!interval && !autoMerge) {
            return;
        }
        background = Executors.newScheduledThreadPool(1, daemonThreads("background"));
        if (interval) {
            long ms = options.syncInterval().toMillis();
            background.scheduleWithFixedDelay(this::backgroundSync, ms, ms, TimeUnit.MILLISECONDS);
        }
        if (autoMerge) {
            long ms = options.mergeCheckInterval().toMillis();
            background.scheduleWithFixedDelay(this::autoMerge, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    private void backgroundSync() {
        if (failure != null) {
            return; // already reported; nothing more is forced until the store is reopened
        }
        try {
            syncTo((long) APPENDED.getAcquire(this));
        } catch (RuntimeException e) {
            LOG.warn("background sync of {} failed: {}", dir, e.toString());
        }
    }

    private void autoMerge() {
        try {
            BitCaskStats s = stats();
            long dead = s.deadBytes();
            boolean due = dead >= options.mergeDeadBytes() || (dead > 0 && s.deadRatio() >= options.mergeDeadRatio());
            if (due && s.segmentCount() > 1) {
                MergeResult r = merge();
                LOG.info("automatic merge of {}: reclaimed {} bytes, {} segments -> {}", dir, r.bytesReclaimed(),
                        r.removedSegments().size(), r.addedSegments().size());
            }
        } catch (IllegalStateException closedMeanwhile) {
            // the store closed while the check ran
        } catch (RuntimeException e) {
            LOG.warn("automatic merge of {} failed: {}", dir, e.toString());
        }
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
        visitLive(action, true);
    }

    /** The live keys, as a weakly consistent snapshot taken when the stream is created (see {@link #forEach}). */
    public Stream<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        visitLive((key, value) -> keys.add(key), false);
        return StreamSupport.stream(Spliterators.spliterator(keys, Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    /** About this many slots per block of the hash space that {@link #visitLive} reads at once. */
    private static final int VISIT_BLOCK_SLOTS = 256;
    private static final long HASH_SPACE = 1L << 32;

    private void visitLive(BiConsumer<byte[], byte[]> sink, boolean withValues) {
        ensureOpen();
        List<byte[]> pairs = new ArrayList<>();
        for (long lo = 0; lo < HASH_SPACE; ) {
            int capacity = keyDir.table().capacity();
            long width = Math.max(1, HASH_SPACE / Math.max(1, capacity / VISIT_BLOCK_SLOTS));
            long hi = Math.min(HASH_SPACE, lo + width);
            readBlock(lo, hi, withValues, pairs);
            for (int p = 0; p < pairs.size(); p += 2) {
                sink.accept(pairs.get(p), pairs.get(p + 1));
            }
            pairs.clear();
            lo = hi;
        }
    }

    /**
     * Reads the live keys whose hash lies in {@code [lo, hi)} (unsigned) into {@code out} as
     * key, value pairs, from one table and between two batch publications; a block that lost a
     * race with a writer, a merge or a growing table is read again whole.
     */
    private void readBlock(long lo, long hi, boolean withValues, List<byte[]> out) {
        for (int attempt = 0; ; attempt++) {
            out.clear();
            long v = batchVersion.get();
            if ((v & 1) != 0) {
                backOff(attempt);
                continue;
            }
            boolean complete;
            boolean mustSync = false;
            int token = gate.enter();
            try {
                ensureOpen();
                int r = readBlockOnce(keyDir.table(), lo, hi, withValues, out);
                complete = r > 0 && batchVersion.get() == v;
                mustSync = r == BLOCK_NOT_DURABLE;
            } finally {
                gate.exit(token);
            }
            if (complete) {
                return;
            }
            if (mustSync) {
                syncTo((long) APPENDED.getAcquire(this));
            }
        }
    }

    private static final int BLOCK_READ = 1;
    private static final int BLOCK_MOVED = 0;
    private static final int BLOCK_NOT_DURABLE = -1;

    private int readBlockOnce(KeyDir.Table t, long lo, long hi, boolean withValues, List<byte[]> out) {
        long now = now();
        int from = t.first((int) lo);
        int homeSpan = t.first((int) (hi - 1)) - from;
        for (int step = 0, i = from; step < t.capacity(); step++, i = t.next(i)) {
            long loc = t.location(i);
            if (loc == 0) {
                if (step > homeSpan) {
                    return BLOCK_READ; // past every home slot of the block and the runs that follow them
                }
                continue;
            }
            long h = Integer.toUnsignedLong(t.hash(i));
            if (h < lo || h >= hi || KeyDir.isDeleted(loc)) {
                continue;
            }
            int len = t.length(i);
            Segment seg = segmentAt(KeyDir.segmentSlot(loc));
            if (seg == null || len <= 0 || len > RecordFormat.MAX_RECORD_LENGTH) {
                if (moved(t, i, loc, len)) {
                    return BLOCK_MOVED;
                }
                throw corrupt(seg, loc, "index entry points nowhere (len " + len + ")");
            }
            byte[] buf = new byte[len];
            long offset = KeyDir.offset(loc);
            try {
                seg.reader().read(offset, buf, 0, len);
            } catch (BitCaskException e) {
                if (moved(t, i, loc, len)) {
                    return BLOCK_MOVED;
                }
                throw e;
            }
            if (storedLength(buf, 0) != len || !RecordFormat.crcMatches(buf, 0, len, seg.salt(), offset)) {
                if (moved(t, i, loc, len)) {
                    return BLOCK_MOVED;
                }
                throw corrupt(seg, loc, "CRC mismatch");
            }
            if (syncAlways && offset + len > seg.durableEnd()) {
                return BLOCK_NOT_DURABLE;
            }
            int flags = RecordFormat.flags(buf, 0);
            if ((flags & RecordFormat.EXPIRES) != 0 && RecordFormat.expiresAt(buf, 0) <= now) {
                continue;
            }
            int keyOff = RecordFormat.keyOffset(flags);
            int keyEnd = keyOff + RecordFormat.keyLength(buf, 0);
            out.add(Arrays.copyOfRange(buf, keyOff, keyEnd));
            out.add(withValues ? Arrays.copyOfRange(buf, keyEnd, len) : null);
        }
        return BLOCK_READ;
    }

    /** Keys with a value; a key whose TTL has passed is counted until a merge drops it, as a read cannot change the count. */
    public long size() {
        ensureOpen();
        return keyDir.size();
    }

    /** A snapshot of sizes and fragmentation. */
    public BitCaskStats stats() {
        ensureOpen();
        List<BitCaskStats.SegmentStats> per = new ArrayList<>();
        long live = 0;
        long data = 0;
        long disk = 0;
        Segment act = active;
        for (Segment seg : segmentsInOrder()) {
            per.add(new BitCaskStats.SegmentStats(seg.id(), seg == act, seg.dataBytes(), seg.liveBytes()));
            live += seg.liveBytes();
            data += seg.dataBytes();
            disk += seg.end();
            try {
                Path hint = SegmentFiles.hintFile(dir, seg.id());
                if (Files.exists(hint)) {
                    disk += Files.size(hint);
                }
            } catch (IOException ignored) {
                // a hint file removed meanwhile counts as absent
            }
        }
        return new BitCaskStats(keyDir.size(), live, data - live, per.size(), disk, keyDir.heapBytes(), List.copyOf(per));
    }

    private synchronized List<Segment> segmentsInOrder() {
        return new ArrayList<>(byId.values());
    }

    /** Forces everything written so far to the storage device. */
    public void sync() {
        ensureOpen();
        if (!readOnly) {
            syncTo((long) APPENDED.getAcquire(this));
        }
    }

    /**
     * Rewrites the live records of every immutable segment into new, compact segments with hint
     * files, swaps them in atomically and deletes the old files. Reads and writes go on meanwhile;
     * a write made during the merge always wins over the merged copy, and a deleted key never
     * comes back. Only one merge runs at a time; a second caller waits for the first.
     */
    public MergeResult merge() {
        ensureWritable();
        mergeLock.lock();
        try {
            ensureWritable();
            deleteDebris();
            return doMerge();
        } finally {
            mergeLock.unlock();
        }
    }

    /**
     * Writes a consistent, openable copy of the store into {@code target} (which must not exist
     * or be empty) while writes go on. Immutable segments are hard-linked when the file system
     * allows it and copied when it does not.
     */
    public void backup(Path target) {
        Objects.requireNonNull(target, "target");
        ensureOpen();
        mergeLock.lock(); // a merge deletes segments; the backup must see a stable set
        try {
            ensureOpen();
            doBackup(target.toAbsolutePath().normalize());
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
        return closed;
    }

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
        if (!closing.compareAndSet(false, true)) {
            uninterruptibly(closeDone::await);
            return;
        }
        try {
            closeOnce();
        } finally {
            closeDone.countDown();
        }
    }

    private void closeOnce() {
        boolean activeForced = false;
        if (background != null) {
            background.shutdownNow();
        }
        mergeCancelled = true;
        // Held while the store is marked closed, so that no merge or backup starts in between and
        // reads segments that close is about to unmap.
        mergeLock.lock();
        try {
            writeLock.lock();
            try {
                closed = true;
            } finally {
                writeLock.unlock();
            }
        } finally {
            mergeLock.unlock();
        }
        stopHintWriter();
        gate.awaitReaders();
        try {
            if (!readOnly) {
                Segment act = active;
                if (failure == null) {
                    act.writer().truncate(writePos);
                    forceSealed();
                    act.force(backend);
                    activeForced = true;
                    pendingHints.add(act);
                    for (Segment seg : new ArrayList<>(pendingHints)) {
                        writeHint(seg);
                    }
                    pendingHints.clear();
                    forceDirectoryIfDirty();
                } else if (syncAlways) {
                    act.writer().truncate(Math.max(act.durableEnd(), RecordFormat.FILE_HEADER_SIZE));
                }
            }
        } finally {
            boolean allClosed = true;
            for (Segment seg : segmentsInOrder()) {
                try {
                    seg.close(); // forces a writable segment before it lets go of it
                } catch (RuntimeException e) {
                    allClosed = false;
                    LOG.warn("closing {} failed: {}", seg.file(), e.toString());
                }
            }
            if (activeForced && allClosed) {
                durableLsn = (long) APPENDED.getAcquire(this);
            }
            closeForced.countDown();
            if (storeLock != null) {
                storeLock.release();
            }
        }
    }

    /** Releases what a failed open acquired. */
    private void abandon() {
        closed = true;
        closing.set(true);
        closeForced.countDown();
        closeDone.countDown();
        if (background != null) {
            background.shutdownNow();
        }
        for (Segment seg : segmentsInOrder()) {
            try {
                seg.close();
            } catch (RuntimeException e) {
                LOG.debug("closing {} after a failed open: {}", seg.file(), e.toString());
            }
        }
        if (storeLock != null) {
            storeLock.release();
        }
    }

    @Override
    public String toString() {
        return "BitCask[" + dir + ", " + options.backend() + (closed ? ", closed" : "") + "]";
    }

    // ------------------------------------------------------------------ checks

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("BitCask store " + dir + " is closed");
        }
    }

    private void ensureWritable() {
        ensureOpen();
        if (readOnly) {
            throw new BitCaskReadOnlyException(dir.toString());
        }
        BitCaskException failed = failure;
        if (failed != null) {
            throw refused(failed);
        }
    }

    /** A key to look up or delete: any key the format can hold, so a store reopened with a smaller limit still reaches every key. */
    private static void checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0) {
            throw new IllegalArgumentException("key must not be empty");
        }
        if (key.length > RecordFormat.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds the format's limit of " + RecordFormat.MAX_KEY_LENGTH);
        }
    }

    /** A key to write a value under: within {@code maxKeySize}. */
    private void checkNewKey(byte[] key) {
        checkKey(key);
        if (key.length > maxKey) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds maxKeySize " + maxKey);
        }
    }

    private void checkValue(byte[] value) {
        Objects.requireNonNull(value, "value");
        if (value.length > maxValue) {
            throw new IllegalArgumentException("value of " + value.length + " bytes exceeds maxValueSize " + maxValue);
        }
    }

    private long now() {
        return options.clock().millis();
    }

    static byte[] utf8(String key) {
        return Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8);
    }

    /** A positive TTL in milliseconds; one too long for a long saturates, so it never wraps into the past. */
    static long ttlMillis(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive: " + ttl);
        }
        try {
            return Math.max(1, ttl.toMillis());
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** {@code now + ttlMillis}, saturated: a far-future expiry is the end of time, never an early one. */
    static long expiresAt(long now, long ttlMillis) {
        long at = now + ttlMillis;
        return ttlMillis > 0 && at < now ? Long.MAX_VALUE : at;
    }

    // ------------------------------------------------------------------- merge

    /**
     * Merges in four steps: seal the active segment and force every input; copy the live records
     * into outputs; swap the key directory over to the copies; retire the inputs. A failure before
     * the swap leaves the store as it was; one after it leaves a merged store.
     */
    private MergeResult doMerge() {
        long started = System.nanoTime();
        List<Segment> inputs;
        long firstOut;
        int reserve;
        writeLock.lock();
        try {
            ensureWritable();
            BitCaskStats s = stats();
            if (s.deadBytes() == 0) {
                return MergeResult.nothing();
            }
            // Seal the active segment so the merge covers everything written so far, and leave a
            // gap of ids for the outputs: they must sort after every input and before every
            // segment written from now on, so that replay order stays correct at every instant.
            inputs = new ArrayList<>(byId.values());
            reserve = inputs.size() + 1;
            firstOut = nextId;
            if (firstOut + reserve + 1 > SegmentFiles.MAX_ID) {
                throw new BitCaskException("segment ids of " + dir + " are exhausted");
            }
            nextId += reserve;
            rollover();
        } finally {
            writeLock.unlock();
        }
        writePendingHints();
        // Every input is on the device before any copy of its records is: otherwise a power loss
        // could keep a copied batch member and lose the batch it came from.
        try {
            forceSealed();
            forceDirectoryIfDirty();
        } catch (RuntimeException e) {
            throw fail(e);
        }
        List<Segment> outputs = new ArrayList<>();
        Relocations moved = new Relocations();
        long skipped = copyLiveRecords(inputs, firstOut, reserve, outputs, moved);
        if (skipped > 0) {
            LOG.warn("merge of {} passed over {} corrupt bytes; keys whose newest record lay there now read as absent", dir, skipped);
        }
        try {
            backend.forceDirectory(dir); // the outputs' names, before any input can go
        } catch (RuntimeException e) {
            discardOutputs(outputs);
            throw fail(e);
        }
        long copied = swap(inputs, outputs, moved);
        long before = retireInputs(inputs);
        long after = outputs.stream().mapToLong(Segment::dataBytes).sum();
        List<Long> removed = inputs.stream().map(Segment::id).toList();
        List<Long> added = outputs.stream().map(Segment::id).toList();
        LOG.debug("merged {}: {} segments -> {}, {} records, {} -> {} bytes", dir, removed.size(), added.size(), copied, before, after);
        return new MergeResult(removed, added, before, after, copied, (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * Copies every record the key directory still points at into new outputs, which are forced,
     * named, opened and hinted but not yet registered; returns the corrupt bytes passed over. On
     * failure every output is removed and the exception thrown.
     */
    private long copyLiveRecords(List<Segment> inputs, long firstOut, int reserve, List<Segment> outputs, Relocations moved) {
        MergeThrottle throttle = new MergeThrottle(options.mergeBytesPerSecond());
        MergeOutput[] current = {null};
        long[] nextOut = {firstOut};
        long now = now();
        long skipped = 0;
        try {
            for (Segment in : inputs) {
                SegmentScanner.Result r = new SegmentScanner(in.reader(), in.file(), in.end(), in.salt()).scan(RecordFormat.FILE_HEADER_SIZE,
                        (offset, buf, off, len) -> {
                            if (mergeCancelled) {
                                throw new MergeCancelled();
                            }
                            int flags = RecordFormat.flags(buf, off);
                            if ((flags & RecordFormat.TOMBSTONE) != 0) {
                                return; // every older version is in an input too, so the tombstone can go
                            }
                            long expiresAt = RecordFormat.expiresAt(buf, off);
                            if (expiresAt != 0 && expiresAt <= now) {
                                return;
                            }
                            int keyOff = off + RecordFormat.keyOffset(flags);
                            int hash = KeyHash.hash(buf, keyOff, RecordFormat.keyLength(buf, off));
                            long loc = KeyDir.location(in.slot(), offset);
                            if (!pointsAt(hash, loc)) {
                                return;
                            }
                            if (current[0] == null || !current[0].fits(len)) {
                                if (current[0] != null) {
                                    MergeOutput done = current[0];
                                    current[0] = null;
                                    outputs.add(openOutput(done));
                                }
                                if (nextOut[0] >= firstOut + reserve) {
                                    throw new BitCaskException("merge of " + dir + " needs more output segments than reserved");
                                }
                                current[0] = MergeOutput.create(backend, dir, nextOut[0]++, newSalt(),
                                        Math.max(segmentSize, (long) RecordFormat.FILE_HEADER_SIZE + len));
                            }
                            long at = current[0].append(buf, off, len);
                            moved.add(hash, loc, outputs.size(), at, len);
                            throttle.copied(len);
                        });
                skipped += r.skippedBytes();
            }
            if (current[0] != null) {
                MergeOutput done = current[0];
                current[0] = null;
                outputs.add(openOutput(done));
            }
        } catch (RuntimeException | Error e) {
            if (current[0] != null) {
                current[0].discardTemporary();
            }
            discardOutputs(outputs);
            if (e instanceof MergeCancelled) {
                throw new IllegalStateException("BitCask store " + dir + " closed during merge");
            }
            throw e;
        }
        return skipped;
    }

    /**
     * Finishes an output and opens it under its final name. Once renamed, the file is either
     * returned (and later registered or discarded) or deleted here; if it can be neither opened nor
     * deleted, it is debris that must go before any later merge may drop a tombstone.
     */
    private Segment openOutput(MergeOutput out) {
        try {
            out.cut();
        } catch (RuntimeException e) {
            out.discardTemporary();
            throw e;
        }
        try {
            out.force();
        } catch (RuntimeException e) {
            out.discardTemporary();
            throw fail(e);
        }
        out.rename();
        SegmentReader reader = null;
        try {
            reader = backend.openReadOnly(out.file());
            Segment seg = new Segment(out.id(), out.salt(), allocateSlot(), out.file(), reader, null, out.end());
            seg.durableTo(out.end());
            writeHint(seg);
            return seg;
        } catch (RuntimeException e) {
            if (reader != null) {
                reader.close();
            }
            deleteOrRemember(out.file());
            throw e;
        }
    }

    /** Closes and deletes outputs of a merge that failed before its swap. */
    private void discardOutputs(List<Segment> outputs) {
        for (Segment o : outputs) {
            o.close();
            synchronized (this) {
                reservedSlots.remove(o.slot());
            }
            deleteOrRemember(o.file());
        }
    }

    /** Deletes a data file and its hint; one that cannot be deleted is kept as debris. Under mergeLock. */
    private void deleteOrRemember(Path data) {
        try {
            deleteSegmentFiles(data);
        } catch (RuntimeException e) {
            undeletedInputs.add(data);
            mergeRefusal = "cannot delete " + data + " (" + e.getMessage() + ")";
            LOG.warn("{}; merges are refused until it can be deleted", mergeRefusal);
        }
    }

    private void deleteSegmentFiles(Path data) {
        String name = data.getFileName().toString();
        backend.delete(data.resolveSibling(name.substring(0, name.length() - SegmentFiles.DATA_SUFFIX.length()) + SegmentFiles.HINT_SUFFIX));
        backend.delete(data);
        directoryDirty.set(true);
    }

    /**
     * Deletes what earlier merges could not, oldest first; until every such file is gone no merge
     * runs, since one that drops a tombstone would let a left-over file bring its key back.
     */
    private void deleteDebris() {
        while (!undeletedInputs.isEmpty()) {
            Path data = undeletedInputs.get(0);
            try {
                deleteSegmentFiles(data);
                backend.forceDirectory(dir);
            } catch (RuntimeException e) {
                throw new BitCaskException("merge refused: " + mergeRefusal + "; still " + e.getMessage(), e);
            }
            undeletedInputs.remove(0);
        }
        mergeRefusal = null;
    }

    /** Registers the outputs and points the key directory at the copies, unless a write moved a key meanwhile. */
    private long swap(List<Segment> inputs, List<Segment> outputs, Relocations moved) {
        long copied = 0;
        writeLock.lock();
        try {
            for (Segment o : outputs) {
                register(o);
            }
            for (int i = 0; i < moved.size(); i++) {
                Segment o = outputs.get(moved.output(i));
                long newLoc = KeyDir.location(o.slot(), moved.offset(i));
                if (keyDir.relocate(moved.hash(i), moved.from(i), newLoc)) {
                    Segment in = segmentAt(KeyDir.segmentSlot(moved.from(i)));
                    in.addLive(-moved.length(i));
                    o.addLive(moved.length(i));
                    copied++;
                }
            }
            // What still points into the inputs was not copied: tombstones and expired records.
            java.util.Set<Integer> inputSlots = new java.util.HashSet<>();
            inputs.forEach(in -> inputSlots.add(in.slot()));
            keyDir.dropDeletedAnd(inputSlots::contains);
            synchronized (this) {
                for (Segment in : inputs) {
                    byId.remove(in.id());
                }
            }
        } finally {
            writeLock.unlock();
        }
        return copied;
    }

    /**
     * Retires the inputs: unreachable first, then unmapped once no reader is left in them, then
     * (once everything that superseded a record they hold is forced) deleted oldest first, forcing
     * the directory after each deletion so that after a power loss the inputs left are a suffix,
     * which replays correctly. Returns their data bytes.
     */
    private long retireInputs(List<Segment> inputs) {
        // Their slots stay reserved until they are closed, so no new segment can answer to a stale location.
        synchronized (this) {
            Segment[] sl = slots.clone();
            for (Segment in : inputs) {
                sl[in.slot()] = null;
                reservedSlots.add(in.slot());
            }
            slots = sl;
        }
        pendingHints.removeAll(inputs);
        unforced.removeAll(inputs);
        gate.awaitReaders();
        long before = 0;
        for (Segment in : inputs) {
            before += in.dataBytes();
            in.close();
        }
        synchronized (this) {
            inputs.forEach(in -> reservedSlots.remove(in.slot()));
        }
        // A merge must not make a power loss lose more than it would have lost without it.
        try {
            syncTo((long) APPENDED.getAcquire(this));
        } catch (RuntimeException e) {
            inputs.forEach(in -> undeletedInputs.add(in.file()));
            mergeRefusal = "merged segments were kept because a force failed";
            throw e;
        }
        for (int n = 0; n < inputs.size(); n++) {
            try {
                deleteSegmentFiles(inputs.get(n).file());
            } catch (RuntimeException e) {
                for (int m = n; m < inputs.size(); m++) {
                    undeletedInputs.add(inputs.get(m).file());
                }
                mergeRefusal = "cannot delete merged segment " + inputs.get(n).file() + " (" + e.getMessage() + ")";
                throw new BitCaskException("merge of " + dir + " completed, but " + mergeRefusal
                        + "; merges are refused until it can be deleted", e);
            }
            try {
                forceDirectoryIfDirty();
            } catch (RuntimeException e) {
                throw fail(e);
            }
        }
        return before;
    }

    /** True when the key directory's entry for {@code hash} points exactly at {@code location}. */
    private boolean pointsAt(int hash, long location) {
        KeyDir.Table t = keyDir.table();
        for (int i = t.first(hash); ; i = t.next(i)) {
            long loc = t.location(i);
            if (loc == 0) {
                return false;
            }
            if (loc == location) {
                return true;
            }
        }
    }

    private static long newSalt() {
        long salt;
        do {
            salt = SALTS.nextLong();
        } while (salt == NO_HEADER);
        return salt;
    }

    private static final class MergeCancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MergeCancelled() {
            super(null, null, false, false);
        }
    }

    // ------------------------------------------------------------------ backup

    private void doBackup(Path target) {
        try {
            if (Files.exists(target)) {
                try (Stream<Path> entries = Files.list(target)) {
                    if (entries.findAny().isPresent()) {
                        throw new BitCaskException("backup target " + target + " is not empty");
                    }
                }
            }
            Files.createDirectories(target);
        } catch (IOException e) {
            throw new BitCaskException("cannot create backup directory " + target + ": " + e.getMessage(), e);
        }
        List<Segment> segs;
        long newestEnd;
        writeLock.lock();
        try {
            ensureOpen();
            segs = segmentsInOrder();
            newestEnd = segs.isEmpty() ? 0 : readOnly ? segs.get(segs.size() - 1).end() : writePos;
        } finally {
            writeLock.unlock();
        }
        for (int n = 0; n < segs.size(); n++) {
            Segment seg = segs.get(n);
            Path dst = target.resolve(seg.file().getFileName());
            if (n == segs.size() - 1) {
                // The newest file can still be appended to or cut at its valid end (by this store,
                // or by the writer beside a read-only one): copy a consistent prefix, never link it.
                int token = gate.enter();
                try {
                    ensureOpen();
                    backend.copyPrefix(seg.reader(), newestEnd, dst);
                } finally {
                    gate.exit(token);
                }
            } else {
                backend.linkOrCopy(seg.file(), dst);
                Path hint = SegmentFiles.hintFile(dir, seg.id());
                if (Files.exists(hint)) {
                    backend.linkOrCopy(hint, target.resolve(hint.getFileName()));
                }
            }
        }
        backend.forceDirectory(target);
    }
}
