package io.caskbench.bitcask.io;

/**
 * Threading: any thread, no lock.
 *
 * <p>The read side of one segment file. Reads are positional and move no shared state, so any
 * number of threads may read at once.
 */
public interface SegmentReader extends AutoCloseable {

    /**
     * Copies {@code len} bytes starting at {@code position} into {@code dst}.
     *
     * @throws io.caskbench.bitcask.BitCaskException when the range is outside the file or the read fails
     */
    void read(long position, byte[] dst, int off, int len);

    /** Current length of the file in bytes, including any unused tail. */
    long size();

    /** Releases the file; idempotent and thread-safe. Mapped memory is forced and unmapped. */
    @Override
    void close();
}
