package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCaskException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Threading: reads from any thread; positional writes from any thread into disjoint ranges (see
 * {@link SegmentWriter}).
 *
 * <p>The file channel shared by both backends. A {@link FileChannel} closes itself for every thread
 * when any thread that uses it is interrupted; an embedded store must not die because a caller
 * interrupted one of its own threads, so such a close is repaired by reopening the file.
 */
abstract class FileSegment implements SegmentWriter {

    /** Final, safe everywhere. */
    final Path file;
    /** Final, safe everywhere. */
    final boolean writable;
    /** Any thread reads; reopened after an interrupt closed it. */
    private volatile FileChannel channel;
    /** Set once by close; any thread. */
    private final AtomicBoolean closed = new AtomicBoolean();
    /**
     * Set once, for a mapped segment that is sealed or read-only: the channel is then closed after each
     * call that needed it, so that such a segment holds no file descriptor. Any thread.
     */
    private volatile boolean noDescriptor;
    /** Set by close while it releases the segment, whose last force may open the file once more. Closing thread. */
    private volatile boolean releasing;

    FileSegment(Path file, boolean writable) {
        this.file = file;
        this.writable = writable;
        this.channel = openChannel();
    }

    private FileChannel openChannel() {
        try {
            return writable
                    ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new BitCaskException("cannot open segment " + file + ": " + e.getMessage(), e);
        }
    }

    /** The channel, reopened if an interrupt of some caller closed it. */
    final FileChannel channel() {
        FileChannel c = channel;
        if (c.isOpen()) {
            return c;
        }
        return reopen(c);
    }

    private synchronized FileChannel reopen(FileChannel stale) {
        if (!releasing) {
            ensureOpen();
        }
        if (channel == stale) {
            channel = openChannel();
        }
        return channel;
    }

    final void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("segment " + file + " is closed");
        }
    }

    /** True when the failure came from an interrupt of another thread rather than from the file. */
    final boolean closedByInterrupt(IOException e) {
        return (e instanceof ClosedChannelException || e instanceof AsynchronousCloseException) && !closed.get();
    }

    final void readFully(long position, ByteBuffer dst) {
        int want = dst.remaining();
        long pos = position;
        while (dst.hasRemaining()) {
            try {
                int n = channel().read(dst, pos);
                if (n < 0) {
                    throw new BitCaskException("read past end of " + file + ": wanted " + want + " bytes at " + position);
                }
                pos += n;
            } catch (IOException e) {
                if (!closedByInterrupt(e)) {
                    throw new BitCaskException("read failed on " + file + " at " + position + ": " + e.getMessage(), e);
                }
                boolean interrupted = Thread.interrupted(); // retry on the reopened channel, then restore the flag
                try {
                    readFully(pos, dst);
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
                return;
            }
        }
    }

    final void writeFully(long position, ByteBuffer src) {
        long pos = position;
        while (src.hasRemaining()) {
            try {
                pos += channel().write(src, pos);
            } catch (IOException e) {
                if (!closedByInterrupt(e)) {
                    throw new BitCaskException("write failed on " + file + " at " + position
                            + " (disk full?): " + e.getMessage(), e);
                }
                boolean interrupted = Thread.interrupted();
                try {
                    writeFully(pos, src);
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
                return;
            }
        }
    }

    /** A channel operation that an interrupt may cut short. */
    @FunctionalInterface
    interface ChannelCall<T> {
        T run(FileChannel channel) throws IOException;
    }

    /**
     * Runs {@code call}; when an interrupt (of this thread or another) closed the channel under it,
     * runs it once more on a reopened channel with this thread's interrupt flag cleared, then sets
     * the flag again. Every call passed here (size, map, force, truncate) is idempotent.
     */
    final <T> T repairing(ChannelCall<T> call, String what) {
        try {
            return repairingCall(call, what);
        } finally {
            if (noDescriptor) {
                dropChannel();
            }
        }
    }

    /**
     * Gives up the file descriptor from now on: the channel is closed now and after each later call
     * that opens it again. A call of another thread that the close cuts short is repaired like one an
     * interrupt cut short. Only for segments whose bytes are reached through a mapping.
     */
    final void keepNoDescriptor() {
        noDescriptor = true;
        dropChannel();
    }

    private synchronized void dropChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new BitCaskException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }

    private <T> T repairingCall(ChannelCall<T> call, String what) {
        try {
            return call.run(channel());
        } catch (IOException e) {
            if (!closedByInterrupt(e)) {
                throw new BitCaskException(what + " failed on " + file + ": " + e.getMessage(), e);
            }
            boolean interrupted = Thread.interrupted();
            try {
                return call.run(channel());
            } catch (IOException again) {
                throw new BitCaskException(what + " failed on " + file + ": " + again.getMessage(), again);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    final void forceChannel() {
        repairing(ch -> {
            ch.force(false);
            return null;
        }, "fsync");
    }

    @Override
    public long size() {
        return repairing(FileChannel::size, "stat");
    }

    @Override
    public void truncate(long size) {
        repairing(ch -> ch.truncate(size), "truncate to " + size);
    }

    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            releasing = true;
            release();
        } finally {
            try {
                channel.close();
            } catch (IOException e) {
                throw new BitCaskException("cannot close " + file + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Closes the channel of a segment whose construction failed after it was opened, adding a failure to
     * close to {@code failure}; the segment counts as closed.
     */
    final void abandon(Throwable failure) {
        closed.set(true);
        try {
            channel.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** Backend-specific release before the channel closes (force and unmap). */
    abstract void release();

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + file + "]";
    }
}
