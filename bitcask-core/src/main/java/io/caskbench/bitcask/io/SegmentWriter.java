package io.caskbench.bitcask.io;

/**
 * Threading: {@link #write} from any number of threads at once, each into its own range; every
 * other call by the log writer with no write under way;
 * readers go through {@link SegmentReader}.
 *
 * <p>The write side of one segment file. Readers may read ranges that were written before they
 * were published.
 */
public interface SegmentWriter extends SegmentReader {

    /**
     * Writes {@code len} bytes at {@code position}, growing the file as needed.
     *
     * @throws io.caskbench.bitcask.BitCaskException when the write fails, for example on a full disk;
     *         bytes before {@code position} are untouched
     */
    void write(long position, byte[] src, int off, int len);

    /**
     * Whether each write is a system call (a positional write into the file): then the log joins
     * records that are ready together into one write. A segment that copies into a mapping says
     * no, and takes one copy per record. True by default.
     */
    default boolean writesBySystemCall() {
        return true;
    }

    /** Forces everything written so far to the storage device. */
    void force();

    /** Cuts the file to {@code size} bytes; used to drop a torn tail and unused preallocated space. */
    void truncate(long size);

    /**
     * Says that no record will be written here any more: the log rolled over past this segment. A
     * mapped segment then gives up its file descriptor, which its mapping does not need; a force or
     * a cut opens the file again for as long as it takes. By default nothing changes.
     */
    default void sealed() {
    }
}
