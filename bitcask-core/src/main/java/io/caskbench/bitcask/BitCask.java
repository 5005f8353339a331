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
import io.caskbench.bitcask.merge.MergeThrottle;
import io.caskbench.bitcask.merge.Relocations;
import io.caskbench.bitcask.recovery.SegmentScanner;
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

    private BitCask(Path dir, BitCaskOptions options) {
        this.dir = dir;
        this.options = options;
        this.backend = options.segmentBackend();
        this.maxKey = options.maxKeySize();
        this.maxValue = options.maxValueSize();
        this.segmentSize = options.segmentSize();
        this.readOnly = options.readOnly();
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
        try {
            if (options.readOnly()) {
                if (!Files.isDirectory(absolute)) {
                    throw new BitCaskException("no BitCask store at " + absolute);
                }
            } else {
                Files.createDirectories(absolute);
            }
        } catch (IOException e) {
            throw new BitCaskException("cannot create " + absolute + ": " + e.getMessage(), e);
        }
        BitCask db = new BitCask(absolute, options);
        try {
            db.recover();
            db.startBackground();
        } catch (RuntimeException | Error e) {
            db.abandon();
            throw e;
        }
        return db;
    }

    // ------------------------------------------------------------------ reads

    /** The value of {@code key}, or null when it is absent, deleted or expired. */
    public byte[] get(byte[] key) {
        checkKey(key);
        int hash = KeyHash.hash(key);
        int token = gate.enter();
        try {
            ensureOpen();
            return readOutsideBatches(key, hash, true);
        } finally {
            gate.exit(token);
        }
    }

    /** The value of a UTF-8 key, or null. */
    public byte[] get(String key) {
        return get(utf8(key));
    }

    /** True when {@code key} has a live value. */
    public boolean containsKey(byte[] key) {
        checkKey(key);
        int hash = KeyHash.hash(key);
        int token = gate.enter();
        try {
            ensureOpen();
            return readOutsideBatches(key, hash, false) != null;
        } finally {
            gate.exit(token);
        }
    }

    /** True when the UTF-8 key has a live value. */
    public boolean containsKey(String key) {
        return containsKey(utf8(key));
    }

    private static final byte[] PRESENT = new byte[0];

    /**
     * A point read that never sees half a batch: the batch writer makes {@code batchVersion} odd
     * while it publishes a batch's keys, and a read that overlapped a publication is repeated.
     * Once a read has seen one key of a batch, every later read sees all of them.
     */
    private byte[] readOutsideBatches(byte[] key, int hash, boolean copy) {
        while (true) {
            long v = batchVersion.get();
            if ((v & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            byte[] result = read(key, hash, copy);
            if (batchVersion.get() == v) {
                return result;
            }
        }
    }

    /** Probes the key directory and reads the record; {@code PRESENT} instead of a copy when !copy. */
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
                if (seg == null || len <= 0 || len > options.maxRecordSize()) {
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
                if (RecordFormat.plausibleLength(buf, 0, maxKey, maxValue) != len) {
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
                if (!RecordFormat.crcMatches(buf, 0, len)) {
                    if (moved(t, i, loc, len)) {
                        continue retry;
                    }
                    throw corrupt(seg, loc, "CRC mismatch");
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

    /** True when the slot no longer says what the reader read from it, or a newer table replaced it. */
    private boolean moved(KeyDir.Table t, int i, long loc, int len) {
        return t.location(i) != loc || t.length(i) != len || keyDir.table() != t;
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
        checkKey(key);
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
        checkKey(key);
        checkValue(value);
        long expiresAt = now() + ttlMillis(ttl);
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
            long current = liveLocation(key, hash);
            if (current == 0) {
                return false;
            }
            removed = current > 0;
            lsn = appendLocked(key, null, RecordFormat.TOMBSTONE, 0L, hash);
        } finally {
            writeLock.unlock();
        }
        afterWrite(lsn);
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
            return;
        }
        long total = RecordFormat.HEADER_SIZE + RecordFormat.BATCH_VALUE_SIZE;
        for (WriteBatch.Op op : ops) {
            checkKey(op.key());
            if (!op.isDelete()) {
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
     * Location of the key's current record when it is live (positive), -1 when it has a record
     * that is expired, 0 when it is absent or deleted. Writer only.
     */
    private long liveLocation(byte[] key, int hash) {
        KeyDir.Table t = keyDir.table();
        for (int i = t.first(hash); ; i = t.next(i)) {
            long loc = t.location(i);
            if (loc == 0) {
                return 0;
            }
            if (t.hash(i) != hash || loc == KeyDir.DELETED || !sameKey(loc & ~KeyDir.DELETED, t.length(i), key, 0, key.length)) {
                continue;
            }
            if (KeyDir.isDeleted(loc)) {
                return 0;
            }
            long expiresAt = RecordFormat.expiresAt(checkScratch, 0);
            return expiresAt != 0 && expiresAt <= now() ? -1 : loc;
        }
    }

    private long appendLocked(byte[] key, byte[] value, int flags, long expiresAt, int hash) {
        int len = RecordFormat.recordLength(flags, key.length, value == null ? 0 : value.length);
        byte[] buf = writeBuffer(len);
        RecordFormat.encode(buf, 0, now(), flags, expiresAt, key, value);
        return appendEncodedLocked(buf, len, flags, key, hash);
    }

    /** Writes a record already encoded in {@code buf}, then points the key directory at it. Writer only. */
    private long appendEncodedLocked(byte[] buf, int len, int flags, byte[] key, int hash) {
        long offset = reserve(len);
        active.writer().write(offset, buf, 0, len);
        writePos = offset + len;
        Segment seg = active;
        seg.end(writePos);
        index(seg, offset, len, flags, key, hash);
        return advanceLsn(len);
    }

    /** Counts appended bytes; release store, as only the writer writes it. */
    private long advanceLsn(int len) {
        long lsn = appendedLsn + len;
        APPENDED.setRelease(this, lsn);
        return lsn;
    }

    private long appendBatchLocked(List<WriteBatch.Op> ops, int total) {
        byte[] buf = writeBuffer(total);
        long now = now();
        int headerLen = RecordFormat.HEADER_SIZE + RecordFormat.BATCH_VALUE_SIZE;
        int p = headerLen;
        for (WriteBatch.Op op : ops) {
            int flags = op.isDelete() ? RecordFormat.TOMBSTONE : (op.ttlMillis() > 0 ? RecordFormat.EXPIRES : 0);
            p += RecordFormat.encode(buf, p, now, flags, op.ttlMillis() > 0 ? now + op.ttlMillis() : 0L, op.key(), op.value());
        }
        RecordFormat.encodeBatchHeader(buf, 0, now, ops.size(), total - headerLen, RecordFormat.crc(buf, headerLen, total - headerLen));
        long offset = reserve(total);
        active.writer().write(offset, buf, 0, total);
        writePos = offset + total;
        Segment seg = active;
        seg.end(writePos);
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
        return advanceLsn(total);
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
        if (!pendingHints.isEmpty() && hintTaskQueued.compareAndSet(false, true)) {
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
        while (durableLsn < lsn) {
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
                        long target = (long) APPENDED.getAcquire(this); // before active: records up to target are in it or forced at rollover
                        Segment seg = active;
                        seg.writer().force();
                        if (target > durableLsn) {
                            durableLsn = target;
                        }
                    }
                } catch (RuntimeException e) {
                    if (!closed) {
                        throw e;
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
        if (me != null) {
            dequeue(me);
        }
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

    private void rollover() {
        Segment old = active;
        old.writer().truncate(writePos);
        if (options.syncPolicy() != SyncPolicy.NONE) {
            old.writer().force();
        }
        Segment created = createSegment(nextId++);
        active = created;
        writePos = created.end();
        if (options.syncPolicy() == SyncPolicy.ALWAYS) {
            SegmentFiles.forceDirectory(dir);
        }
        pendingHints.add(old);
    }

    /** Sealed segments whose hint file is still to be written. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Segment> pendingHints = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private Segment createSegment(long id) {
        Path file = SegmentFiles.dataFile(dir, id);
        SegmentWriter w = backend.openWritable(file, segmentSize);
        try {
            byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
            RecordFormat.encodeFileHeader(header, id);
            w.write(0, header, 0, header.length);
        } catch (RuntimeException e) {
            w.close();
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // the half-made file is debris that recovery skips
            }
            throw e;
        }
        Segment seg = new Segment(id, allocateSlot(), file, w, w, RecordFormat.FILE_HEADER_SIZE);
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

    private synchronized void unregister(Segment seg) {
        Segment[] s = slots.clone();
        s[seg.slot()] = null;
        slots = s;
        byId.remove(seg.id());
    }

    /** Writes the hint files of segments sealed since the last call; outside the write lock. */
    private void writePendingHints() {
        // Inside the gate before taking a segment: a merge makes its inputs unreachable (out of
        // this queue and the slot table) before it waits at the gate and unmaps them.
        int token = gate.enter();
        try {
            Segment seg;
            while (!closed && (seg = pendingHints.poll()) != null) {
                if (segmentAt(seg.slot()) != seg) {
                    continue; // merged away meanwhile
                }
                try {
                    writeHint(seg);
                } catch (RuntimeException e) {
                    LOG.warn("cannot write hint file for {}: {}; open will scan it instead", seg.file(), e.toString());
                }
            }
        } finally {
            gate.exit(token);
        }
    }

    /** Writes the hint file of a segment whose content up to its end will not change. */
    void writeHint(Segment seg) {
        long end = seg.end();
        HintFormat.Builder hint = new HintFormat.Builder(seg.id());
        new SegmentScanner(seg.reader(), seg.file(), end, maxKey, maxValue)
                .scan(RecordFormat.FILE_HEADER_SIZE, (offset, buf, off, length) -> hint.add(offset, buf, off, length));
        writeFileAtomically(SegmentFiles.hintFile(dir, seg.id()), hint.finish(end));
    }

    private void writeFileAtomically(Path target, byte[] content) {
        Path tmp = SegmentFiles.tempFile(target);
        try {
            try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // left for the next open to clean up
            }
            throw new BitCaskException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- recovery

    private void recover() {
        for (Path tmp : SegmentFiles.tempFiles(dir)) {
            if (!readOnly) {
                try {
                    Files.deleteIfExists(tmp);
                    LOG.debug("removed {} left by an interrupted write", tmp);
                } catch (IOException e) {
                    LOG.warn("cannot remove {}: {}", tmp, e.getMessage());
                }
            }
        }
        List<Long> ids = SegmentFiles.dataIds(dir);
        long started = System.nanoTime();
        keyDir.reserve(Math.max(options.expectedKeys(), hintedEntries(ids)));
        int fromHints = 0;
        for (int n = 0; n < ids.size(); n++) {
            long id = ids.get(n);
            boolean newest = n == ids.size() - 1;
            if (loadSegment(id, newest)) {
                fromHints++;
            }
        }
        nextId = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
        if (!readOnly) {
            if (active == null) {
                active = createSegment(nextId++);
                writePos = active.end();
            }
        }
        LOG.debug("opened {}: {} segments ({} from hints), {} keys in {} ms", dir, ids.size(), fromHints,
                keyDir.size(), (System.nanoTime() - started) / 1_000_000);
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
                // counted as zero: the directory grows as the segment is scanned
            }
        }
        return total;
    }

    /** Loads one data file into the key directory; returns true when its hint file was used. */
    private boolean loadSegment(long id, boolean newest) {
        Path file = SegmentFiles.dataFile(dir, id);
        SegmentReader reader = backend.openReadOnly(file);
        long length = reader.size();
        Segment seg = new Segment(id, allocateSlot(), file, reader, null, length);
        register(seg);
        if (length < RecordFormat.FILE_HEADER_SIZE || !hasHeader(reader, id)) {
            LOG.warn("{}: missing or foreign file header; scanning its records anyway", file);
        }
        long scanFrom = RecordFormat.FILE_HEADER_SIZE;
        boolean hinted = false;
        Path hintFile = SegmentFiles.hintFile(dir, id);
        if (Files.exists(hintFile)) {
            long covered = applyHint(seg, hintFile, length);
            if (covered > 0) {
                scanFrom = covered;
                hinted = true;
            }
        }
        long end = Math.max(scanFrom, Math.min(length, RecordFormat.FILE_HEADER_SIZE));
        if (scanFrom < length) {
            SegmentScanner.Result r = new SegmentScanner(reader, file, length, maxKey, maxValue)
                    .scan(scanFrom, (offset, buf, off, len) -> applyRecord(seg, offset, buf, off, len));
            end = r.end();
        }
        seg.end(end);
        if (newest && !readOnly) {
            // The newest segment stays the active one: reopen it for writing, cut at its valid end.
            reader.close();
            SegmentWriter w = backend.openWritable(file, segmentSize);
            if (w.size() > end) {
                w.truncate(end);
            }
            if (end < RecordFormat.FILE_HEADER_SIZE) {
                byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
                RecordFormat.encodeFileHeader(header, id);
                w.write(0, header, 0, header.length);
                end = RecordFormat.FILE_HEADER_SIZE;
            }
            Segment writable = new Segment(id, seg.slot(), file, w, w, end);
            writable.addLive(seg.liveBytes());
            replace(seg, writable);
            active = writable;
            writePos = end;
        }
        return hinted;
    }

    private synchronized void replace(Segment old, Segment fresh) {
        Segment[] s = slots.clone();
        s[old.slot()] = fresh;
        slots = s;
        byId.put(fresh.id(), fresh);
    }

    private static boolean hasHeader(SegmentReader reader, long id) {
        if (reader.size() < RecordFormat.FILE_HEADER_SIZE) {
            return false;
        }
        byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
        reader.read(0, header, 0, header.length);
        return RecordFormat.isFileHeader(header, id);
    }

    /** Applies a hint file; returns the data offset it covers, or -1 when it was unusable. */
    private long applyHint(Segment seg, Path hintFile, long dataLength) {
        byte[] hint;
        try {
            hint = Files.readAllBytes(hintFile);
        } catch (IOException e) {
            LOG.warn("{}: cannot read ({}); scanning {} instead", hintFile, e.getMessage(), seg.file());
            return -1;
        }
        String[] why = new String[1];
        long covered = HintFormat.validate(hint, seg.id(), dataLength, maxKey, maxValue, why);
        if (covered < 0) {
            LOG.warn("{}: unusable hint file ({}); scanning {} instead", hintFile, why[0], seg.file());
            return -1;
        }
        HintFormat.forEach(hint, (offset, recordLength, flags, expiresAt, buf, keyOff, keyLength) ->
                index(seg, offset, recordLength, flags, buf, keyOff, keyLength, KeyHash.hash(buf, keyOff, keyLength)));
        return covered;
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
     * Calls {@code action} with each live key and value once. Weakly consistent: pairs written
     * or deleted while it runs may or may not be seen, but every pair seen was live at some
     * moment during the call, and no key is seen twice. The arrays are fresh copies.
     */
    public void forEach(BiConsumer<byte[], byte[]> action) {
        Objects.requireNonNull(action, "action");
        visitLive((key, value) -> action.accept(key, value), true);
    }

    /** The live keys, as a weakly consistent snapshot taken when the stream is created. */
    public Stream<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        visitLive((key, value) -> keys.add(key), false);
        return StreamSupport.stream(Spliterators.spliterator(keys, Spliterator.DISTINCT | Spliterator.NONNULL), false);
    }

    private void visitLive(BiConsumer<byte[], byte[]> sink, boolean withValues) {
        ensureOpen();
        KeyDir.Table t = keyDir.table();
        long now = now();
        for (int i = 0; i < t.capacity(); i++) {
            byte[] key;
            byte[] value;
            int token = gate.enter();
            try {
                ensureOpen();
                long loc = t.location(i);
                if (loc == 0 || KeyDir.isDeleted(loc)) {
                    continue;
                }
                int len = t.length(i);
                Segment seg = segmentAt(KeyDir.segmentSlot(loc));
                if (seg == null || moved(t, i, loc, len)) {
                    continue;
                }
                byte[] buf = new byte[len];
                try {
                    seg.reader().read(KeyDir.offset(loc), buf, 0, len);
                } catch (BitCaskException e) {
                    if (moved(t, i, loc, len)) {
                        continue;
                    }
                    throw e;
                }
                if (RecordFormat.plausibleLength(buf, 0, maxKey, maxValue) != len || !RecordFormat.crcMatches(buf, 0, len)) {
                    if (moved(t, i, loc, len)) {
                        continue;
                    }
                    throw corrupt(seg, loc, "CRC mismatch");
                }
                int flags = RecordFormat.flags(buf, 0);
                if ((flags & RecordFormat.EXPIRES) != 0 && RecordFormat.expiresAt(buf, 0) <= now) {
                    continue;
                }
                int keyOff = RecordFormat.keyOffset(flags);
                int keyEnd = keyOff + RecordFormat.keyLength(buf, 0);
                key = Arrays.copyOfRange(buf, keyOff, keyEnd);
                value = withValues ? Arrays.copyOfRange(buf, keyEnd, len) : null;
            } finally {
                gate.exit(token);
            }
            sink.accept(key, value);
        }
    }

    /** Live keys (keys that expired but were not yet read or merged are still counted). */
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
     * the directory lock. Idempotent and thread-safe: a second call returns at once.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        boolean activeForced = false;
        if (background != null) {
            background.shutdownNow();
        }
        mergeCancelled = true;
        mergeLock.lock(); // wait for a running merge to stop
        mergeLock.unlock();
        writeLock.lock();
        try {
            closed = true;
        } finally {
            writeLock.unlock();
        }
        stopHintWriter();
        gate.awaitReaders();
        try {
            if (!readOnly) {
                Segment act = active;
                act.writer().truncate(writePos);
                act.writer().force();
                activeForced = true;
                pendingHints.add(act);
                for (Segment seg : new ArrayList<>(pendingHints)) {
                    try {
                        writeHint(seg);
                    } catch (BitCaskException e) {
                        LOG.warn("cannot write hint file for {}: {}; open will scan it instead", seg.file(), e.getMessage());
                    }
                }
                pendingHints.clear();
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
    }

    private void checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0) {
            throw new IllegalArgumentException("key must not be empty");
        }
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

    static long ttlMillis(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive: " + ttl);
        }
        return Math.max(1, ttl.toMillis());
    }

    // ------------------------------------------------------------------- merge

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

        List<Segment> outputs = new ArrayList<>();
        Relocations moved = new Relocations();
        MergeThrottle throttle = new MergeThrottle(options.mergeBytesPerSecond());
        long[] out = {firstOut, 0}; // next output id, write position
        SegmentWriter[] writer = {null};
        Path[] tmp = {null};
        long now = now();
        try {
            for (Segment in : inputs) {
                new SegmentScanner(in.reader(), in.file(), in.end(), maxKey, maxValue).scan(RecordFormat.FILE_HEADER_SIZE,
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
                            if (writer[0] == null || out[1] + len > segmentSize) {
                                if (writer[0] != null) {
                                    outputs.add(finishOutput(writer[0], tmp[0], out[0] - 1, out[1]));
                                }
                                if (out[0] >= firstOut + reserve) {
                                    throw new BitCaskException("merge of " + dir + " needs more output segments than reserved");
                                }
                                tmp[0] = SegmentFiles.tempFile(SegmentFiles.dataFile(dir, out[0]));
                                writer[0] = backend.openWritable(tmp[0], segmentSize);
                                byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
                                RecordFormat.encodeFileHeader(header, out[0]);
                                writer[0].write(0, header, 0, header.length);
                                out[0]++;
                                out[1] = RecordFormat.FILE_HEADER_SIZE;
                            }
                            writer[0].write(out[1], buf, off, len);
                            moved.add(hash, loc, out[1] | ((out[0] - 1) << 40), len); // id for now, slot later
                            out[1] += len;
                            throttle.copied(len);
                        });
            }
            if (writer[0] != null) {
                outputs.add(finishOutput(writer[0], tmp[0], out[0] - 1, out[1]));
                writer[0] = null;
            }
        } catch (RuntimeException | Error e) {
            if (writer[0] != null) {
                writer[0].close();
            }
            discardOutputs(outputs, tmp[0]);
            if (e instanceof MergeCancelled) {
                throw new IllegalStateException("BitCask store " + dir + " closed during merge");
            }
            throw e;
        }
        SegmentFiles.forceDirectory(dir);

        // Swap: point the key directory at the copies, unless a write moved the key meanwhile.
        long copied = 0;
        writeLock.lock();
        try {
            java.util.Map<Long, Segment> outById = new java.util.HashMap<>();
            for (Segment o : outputs) {
                register(o);
                outById.put(o.id(), o);
            }
            for (int i = 0; i < moved.size(); i++) {
                long to = moved.to(i);
                Segment o = outById.get(to >>> 40);
                long newLoc = KeyDir.location(o.slot(), KeyDir.offset(to));
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
        // Make the inputs unreachable, then wait for readers and hint writers that reached them
        // before; only then unmap. Their slots stay reserved until then, so no new segment can
        // answer to a stale location.
        synchronized (this) {
            Segment[] sl = slots.clone();
            for (Segment in : inputs) {
                sl[in.slot()] = null;
                reservedSlots.add(in.slot());
            }
            slots = sl;
        }
        pendingHints.removeAll(inputs);
        gate.awaitReaders();
        long before = 0;
        for (Segment in : inputs) {
            before += in.dataBytes();
            in.close();
        }
        synchronized (this) {
            inputs.forEach(in -> reservedSlots.remove(in.slot()));
        }
        // Ascending order: at every instant the inputs left form a suffix, which replays correctly.
        for (Segment in : inputs) {
            try {
                Files.deleteIfExists(SegmentFiles.hintFile(dir, in.id()));
                Files.deleteIfExists(in.file());
            } catch (IOException e) {
                LOG.warn("merge could not delete {}: {}", in.file(), e.getMessage());
            }
        }
        SegmentFiles.forceDirectory(dir);
        long after = outputs.stream().mapToLong(Segment::dataBytes).sum();
        List<Long> removed = inputs.stream().map(Segment::id).toList();
        List<Long> added = outputs.stream().map(Segment::id).toList();
        LOG.debug("merged {}: {} segments -> {}, {} records, {} -> {} bytes", dir, removed.size(), added.size(), copied, before, after);
        return new MergeResult(removed, added, before, after, copied, (System.nanoTime() - started) / 1_000_000);
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

    /** Forces a complete output, writes its hint and gives it its final name. */
    private Segment finishOutput(SegmentWriter w, Path tmp, long id, long end) {
        w.truncate(end);
        w.force();
        Path file = SegmentFiles.dataFile(dir, id);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            w.close();
            throw new BitCaskException("cannot rename " + tmp + " to " + file + ": " + e.getMessage(), e);
        }
        w.close();
        // Reopen under the final name: a channel that an interrupt closes is reopened by its path.
        Segment seg = new Segment(id, allocateSlot(), file, backend.openReadOnly(file), null, end);
        writeHint(seg);
        return seg;
    }

    private void discardOutputs(List<Segment> outputs, Path tmp) {
        for (Segment o : outputs) {
            o.close();
            synchronized (this) {
                reservedSlots.remove(o.slot());
            }
            try {
                Files.deleteIfExists(SegmentFiles.hintFile(dir, o.id()));
                Files.deleteIfExists(o.file());
            } catch (IOException e) {
                LOG.warn("cannot remove merge output {}: {}", o.file(), e.getMessage());
            }
        }
        if (tmp != null) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                LOG.warn("cannot remove merge output {}: {}", tmp, e.getMessage());
            }
        }
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
        Segment act;
        long activeEnd;
        writeLock.lock();
        try {
            ensureOpen();
            segs = segmentsInOrder();
            act = readOnly ? null : active;
            activeEnd = readOnly ? 0 : writePos;
        } finally {
            writeLock.unlock();
        }
        for (Segment seg : segs) {
            Path dst = target.resolve(seg.file().getFileName());
            try {
                if (seg == act) {
                    copyPrefix(seg, dst, activeEnd);
                } else {
                    linkOrCopy(seg.file(), dst);
                    Path hint = SegmentFiles.hintFile(dir, seg.id());
                    if (Files.exists(hint)) {
                        linkOrCopy(hint, target.resolve(hint.getFileName()));
                    }
                }
            } catch (IOException e) {
                throw new BitCaskException("backup of " + seg.file() + " to " + dst + " failed: " + e.getMessage(), e);
            }
        }
        SegmentFiles.forceDirectory(target);
    }

    private static void linkOrCopy(Path src, Path dst) throws IOException {
        try {
            Files.createLink(dst, src);
        } catch (UnsupportedOperationException | IOException e) {
            Files.copy(src, dst, StandardCopyOption.COPY_ATTRIBUTES);
            try (var ch = java.nio.channels.FileChannel.open(dst, java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }
    }

    /** Copies the first {@code end} bytes of the active segment: a consistent prefix of the log. */
    private void copyPrefix(Segment seg, Path dst, long end) throws IOException {
        int token = gate.enter();
        try (var ch = java.nio.channels.FileChannel.open(dst, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            ensureOpen();
            byte[] buf = new byte[1 << 20];
            for (long p = 0; p < end; ) {
                int n = (int) Math.min(buf.length, end - p);
                seg.reader().read(p, buf, 0, n);
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(buf, 0, n);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                p += n;
            }
            ch.force(true);
        } finally {
            gate.exit(token);
        }
    }
}
