package io.caskbench.bitcask.io;

import io.caskbench.bitcask.format.RecordFormat;

import java.nio.file.Path;

/**
 * One data file of the store, as the engine tracks it: its id (which orders it against the
 * others), the slot that locations in the key directory name it by, its reader, and its
 * writer while it is the active segment.
 */
public final class Segment {

    private final long id;
    private final int slot;
    private final Path file;
    private final SegmentReader reader;
    private final SegmentWriter writer;
    // Written only by the store's writer; release stores instead of volatile ones keep a full
    // fence off every put, and readers of these figures (stats) accept a slightly old value.
    private long end;
    private long liveBytes;

    private static final java.lang.invoke.VarHandle END;
    private static final java.lang.invoke.VarHandle LIVE;

    static {
        try {
            java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
            END = l.findVarHandle(Segment.class, "end", long.class);
            LIVE = l.findVarHandle(Segment.class, "liveBytes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Tracks a segment.
     *
     * @param writer the writer when this segment may be appended to, else null
     * @param end    bytes of valid content, file header included
     */
    public Segment(long id, int slot, Path file, SegmentReader reader, SegmentWriter writer, long end) {
        this.id = id;
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
        return (long) LIVE.getAcquire(this);
    }

    /** Adds to the live bytes (writer only). */
    public void addLive(long delta) {
        LIVE.setRelease(this, liveBytes + delta);
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
