package io.caskbench.bitcask.recovery;

import io.caskbench.bitcask.io.SegmentReader;

import java.util.function.LongConsumer;

/**
 * Threading: one thread, the one that reads the file.
 *
 * <p>A reader that reports how far into its file the reads have got, for a progress bar.
 */
final class CountingReader implements SegmentReader {

    /** Final. */
    private final SegmentReader delegate;
    /** Final. */
    private final LongConsumer advance;
    /** The furthest offset read so far; the reading thread. */
    private long highest;

    /** Wraps {@code delegate}; {@code advance} hears each new stretch of the file that was read. */
    CountingReader(SegmentReader delegate, LongConsumer advance) {
        this.delegate = delegate;
        this.advance = advance;
    }

    @Override
    public void read(long position, byte[] dst, int off, int len) {
        delegate.read(position, dst, off, len);
        long end = position + len;
        if (end > highest) {
            advance.accept(end - highest);
            highest = end;
        }
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
