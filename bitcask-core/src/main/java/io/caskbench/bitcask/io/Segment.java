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
    private volatile long end;
    private volatile long liveBytes;

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
        return end;
    }

    /** Sets the end of valid content (writer only). */
    public void end(long end) {
        this.end = end;
    }

    /** Bytes of records in this segment, file header excluded. */
    public long dataBytes() {
        return Math.max(0, end - RecordFormat.FILE_HEADER_SIZE);
    }

    /** Bytes of its records that are current. */
    public long liveBytes() {
        return liveBytes;
    }

    /** Adds to the live bytes (writer only). */
    public void addLive(long delta) {
        liveBytes = liveBytes + delta;
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
        return "Segment[" + id + " @" + slot + " " + file.getFileName() + " end=" + end + "]";
    }
}
