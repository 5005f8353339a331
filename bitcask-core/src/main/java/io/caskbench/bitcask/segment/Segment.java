package io.caskbench.bitcask.segment;

import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentReader;
import io.caskbench.bitcask.io.SegmentWriter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/**
 * Threading: the final fields are safe everywhere; {@code end} is written by the writer thread,
 * under the log writer's lock, with release stores, and read anywhere with acquire loads;
 * {@code liveBytes} is changed by the log writer under its lock (or recovery) with release stores,
 * {@code deadByPuts} by putting threads as they publish; {@code durableEnd} only rises, under
 * {@code durableLock}.
 *
 * <p>One data file of the store, as the engine tracks it: its id (which orders it against the
 * others), its salt (which binds its records to it), the slot that locations in the key directory
 * name it by, its reader, and its writer while it is the active segment.
 *
 * <p>Readers of {@code end} and {@code liveBytes} (stats) accept a slightly old value: a full
 * fence per put would cost more than the put. While puts publish, the live bytes may also count
 * as live a record that a put is about to find replaced.
 */
public final class Segment {

    private static final VarHandle END;
    private static final VarHandle LIVE;
    private static final VarHandle DURABLE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            END = l.findVarHandle(Segment.class, "end", long.class);
            LIVE = l.findVarHandle(Segment.class, "liveBytes", long.class);
            DURABLE = l.findVarHandle(Segment.class, "durableEnd", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Final, safe everywhere. */
    private final long id;
    /** Final, safe everywhere. */
    private final long salt;
    /** Final, safe everywhere. */
    private final int slot;
    /** Final, safe everywhere. */
    private final Path file;
    /** Final, safe everywhere. */
    private final SegmentReader reader;
    /** Null when read-only; final, used by the log writer under its lock. */
    private final SegmentWriter writer;
    /** End of valid content; writer thread, under the log writer's lock (release store). */
    private long end;
    /** Bytes of current records, plus {@code deadByPuts}; the log writer under its lock, or recovery (release store). */
    private long liveBytes;
    /** Bytes of records that publishing puts found replaced; any putting thread adds. Striped: two cores publish at once. */
    private final LongAdder deadByPuts = new LongAdder();
    /** Guards the rise of {@code durableEnd}. */
    private final Object durableLock = new Object();
    /** Everything before this offset is on the device; any thread reads, rises only under {@code durableLock}. */
    private long durableEnd;
    /** Where its tombstones lie; the threads its own comment names. Final. */
    private final SegmentTombstones tombstones = new SegmentTombstones();

    /**
     * Tracks a segment.
     *
     * @param writer the writer when this segment may be appended to, else null
     * @param end    bytes of valid content, file header included
     */
    public Segment(long id, long salt, int slot, Path file, SegmentReader reader, SegmentWriter writer, long end) {
        this.id = id;
        this.salt = salt;
        this.slot = slot;
        this.file = file;
        this.reader = reader;
        this.writer = writer;
        this.end = end;
    }

    /** The file id. */
    public long id() {
        return id;
    }

    /** The salt of the file header, which every record's check field is bound to. */
    public long salt() {
        return salt;
    }

    /** The slot locations refer to it by. */
    public int slot() {
        return slot;
    }

    /** The data file. */
    public Path file() {
        return file;
    }

    /** The reader. */
    public SegmentReader reader() {
        return reader;
    }

    /** The writer, or null for a segment opened read-only. */
    public SegmentWriter writer() {
        return writer;
    }

    /** End of valid content. */
    public long end() {
        return (long) END.getAcquire(this);
    }

    /** Sets the end of valid content (writer only). */
    public void end(long end) {
        END.setRelease(this, end);
    }

    /** Bytes of records in this segment, file header excluded. */
    public long dataBytes() {
        return Math.max(0, end() - RecordFormat.FILE_HEADER_SIZE);
    }

    /** Bytes of its records that are current. */
    public long liveBytes() {
        long dead = deadByPuts.sum(); // first: a record is counted live before a put counts it dead
        return (long) LIVE.getAcquire(this) - dead;
    }

    /** Adds to the live bytes: the log writer under its lock, or recovery. */
    public void addLive(long delta) {
        LIVE.setRelease(this, liveBytes + delta);
    }

    /** Counts {@code bytes} of this segment's records as no longer current; any putting thread, as it publishes. */
    public void addDead(long bytes) {
        deadByPuts.add(bytes);
    }

    /** Where its tombstones lie: the log writer notes each one it indexes, and a merge reads them. */
    public SegmentTombstones tombstones() {
        return tombstones;
    }

    /** Offset before which everything is known to be on the device. */
    public long durableEnd() {
        return (long) DURABLE.getAcquire(this);
    }

    /** Records that everything before {@code offset} is on the device. */
    public void durableTo(long offset) {
        synchronized (durableLock) {
            if (offset > durableEnd) {
                DURABLE.setRelease(this, offset);
            }
        }
    }

    /** True when the whole valid content is known to be on the device. */
    public boolean durable() {
        return durableEnd() >= end();
    }

    /**
     * Forces the content up to the current end, through the writer while there is one, and
     * through {@code backend} by name once the segment is read-only; then marks it durable.
     */
    public void force(SegmentBackend backend) {
        long to = end();
        if (writer != null) {
            writer.force();
        } else {
            backend.forceFile(file);
        }
        durableTo(to);
    }

    /** Closes the reader and writer; idempotent. */
    public void close() {
        if (writer != null) {
            writer.close();
        }
        if (reader != writer) {
            reader.close();
        }
    }

    @Override
    public String toString() {
        return "Segment[" + id + " @" + slot + " " + file.getFileName() + " end=" + end() + "]";
    }
}
