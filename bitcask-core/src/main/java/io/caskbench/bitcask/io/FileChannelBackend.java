package io.caskbench.bitcask.io;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Threading: stateless, safe everywhere; see {@link SegmentReader} and {@link SegmentWriter} for the files it opens.
 *
 * <p>Positional {@code pread}/{@code pwrite} through a {@link java.nio.channels.FileChannel}: one
 * system call per read or write, no mapped memory.
 */
public final class FileChannelBackend implements SegmentBackend {

    @Override
    public SegmentWriter openWritable(Path file, long capacity) {
        return new ChannelSegment(file, true);
    }

    @Override
    public SegmentReader openReadOnly(Path file) {
        return new ChannelSegment(file, false);
    }

    private static final class ChannelSegment extends FileSegment {

        ChannelSegment(Path file, boolean writable) {
            super(file, writable);
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) {
            ensureOpen();
            readFully(position, ByteBuffer.wrap(dst, off, len));
        }

        @Override
        public void write(long position, byte[] src, int off, int len) {
            ensureOpen();
            writeFully(position, ByteBuffer.wrap(src, off, len));
        }

        @Override
        public void force() {
            ensureOpen();
            forceChannel();
        }

        @Override
        void release() {
            if (writable) {
                forceChannel();
            }
        }
    }
}
