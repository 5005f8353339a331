package io.caskbench.bitcask.merge;

import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.format.RecordFormat;
import io.caskbench.bitcask.io.SegmentBackend;
import io.caskbench.bitcask.io.SegmentFiles;
import io.caskbench.bitcask.io.SegmentWriter;

import java.nio.file.Path;

/**
 * Threading: the merging thread only.
 *
 * <p>One output file of a merge, through its life: written as {@code <id>.data.tmp} (which every
 * open deletes), forced, then renamed to its final name. Until the rename nothing can replay it;
 * after it, the merge either registers it or deletes it, so no output is ever left on the disk
 * unaccounted for.
 *
 * <p>Threading: used by the merging thread only.
 */
public final class MergeOutput {

    /** Final. */
    private final SegmentBackend backend;
    /** Final. */
    private final long id;
    /** Final. */
    private final long salt;
    /** Final. */
    private final Path file;
    /** Final. */
    private final Path tmp;
    /** Final. */
    private final long capacity;
    /** Null once finished or discarded; merging thread. */
    private SegmentWriter writer;
    /** End of the records written; merging thread. */
    private long end = RecordFormat.FILE_HEADER_SIZE;
    /** A record being re-sealed; merging thread. */
    private byte[] scratch = new byte[4096];

    private MergeOutput(SegmentBackend backend, Path dir, long id, long salt, long capacity) {
        this.backend = backend;
        this.id = id;
        this.salt = salt;
        this.file = SegmentFiles.dataFile(dir, id);
        this.tmp = SegmentFiles.tempFile(file);
        this.capacity = capacity;
    }

    /** Creates the temporary file of output {@code id} with its header; nothing is left behind on failure. */
    public static MergeOutput create(SegmentBackend backend, Path dir, long id, long salt, long capacity) {
        MergeOutput out = new MergeOutput(backend, dir, id, salt, capacity);
        out.writer = backend.openWritable(out.tmp, capacity);
        try {
            byte[] header = new byte[RecordFormat.FILE_HEADER_SIZE];
            RecordFormat.encodeFileHeader(header, id, salt);
            out.writer.write(0, header, 0, header.length);
        } catch (RuntimeException e) {
            out.discardTemporary();
            throw e;
        }
        return out;
    }

    /** The segment id. */
    public long id() {
        return id;
    }

    /** The salt of its header. */
    public long salt() {
        return salt;
    }

    /** The final name. */
    public Path file() {
        return file;
    }

    /** End of the records written so far. */
    public long end() {
        return end;
    }

    /** True when a record of {@code length} bytes still fits. */
    public boolean fits(int length) {
        return end + length <= capacity;
    }

    /**
     * Appends a copy of a valid record, re-sealed for its new place (a copied batch member stands
     * alone); returns the offset it was written at.
     */
    public long append(byte[] record, int off, int length) {
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        System.arraycopy(record, off, scratch, 0, length);
        long at = end;
        RecordFormat.reseal(scratch, 0, length, salt, at);
        writer.write(at, scratch, 0, length);
        end = at + length;
        return at;
    }

    /** Cuts the file at the end of its records. On failure the caller discards the output. */
    public void cut() {
        writer.truncate(end);
    }

    /**
     * Forces the file. On failure the caller discards the output, and reports the failed force,
     * which marks the whole store failed.
     */
    public void force() {
        writer.force();
    }

    /**
     * Gives the forced file its final name. On failure the temporary file is removed (or left for
     * the next open to remove) and the exception is thrown.
     */
    public void rename() {
        try {
            writer.close();
            writer = null;
            backend.rename(tmp, file);
        } catch (RuntimeException e) {
            discardTemporary();
            throw e;
        }
    }

    /** Removes the temporary file of an unfinished output; a file it cannot remove is debris the next open removes. */
    public void discardTemporary() {
        if (writer != null) {
            try {
                writer.close();
            } catch (RuntimeException ignored) {
                // nothing of it will be read again
            }
            writer = null;
        }
        try {
            backend.delete(tmp);
        } catch (BitCaskException ignored) {
            // a *.tmp file is never replayed, and the next open deletes it
        }
    }

    /** A short description for messages. */
    @Override
    public String toString() {
        return "MergeOutput[" + file.getFileName() + " end=" + end + "]";
    }
}
