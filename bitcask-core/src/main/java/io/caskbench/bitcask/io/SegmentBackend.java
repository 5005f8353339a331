package io.caskbench.bitcask.io;

import java.nio.file.Path;

/**
 * Opens segment files. Implementations differ only in how bytes move between the file and the
 * heap; the record layout and every decision about it live above this interface.
 */
public interface SegmentBackend {

    /**
     * Opens (creating if absent) a file for appending records up to {@code capacity} bytes.
     * Existing content is kept.
     */
    SegmentWriter openWritable(Path file, long capacity);

    /** Opens an existing file for reading only. */
    SegmentReader openReadOnly(Path file);
}
