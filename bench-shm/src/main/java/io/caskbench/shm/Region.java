package io.caskbench.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A benchmark region and what must happen to it afterwards: mapped ones are forced, unmapped and their
 * file deleted at {@link #close()}, so one trial's gigabyte never lingers into the next.
 */
public final class Region implements AutoCloseable {

    private final Backing backing;
    private final ByteBuffer buffer;
    private final Path file;
    private boolean closed;

    Region(Backing backing, ByteBuffer buffer, Path file) {
        this.backing = backing;
        this.buffer = buffer;
        this.file = file;
    }

    /** What the region is made of. */
    public Backing backing() {
        return backing;
    }

    /** The region; invalid after {@link #close()}. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The mapped file, or null for direct and heap regions. */
    public Path file() {
        return file;
    }

    /**
     * Forces and unmaps a mapped region and deletes its file, frees a direct one at once; a no-op for
     * heap regions and the second time.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (buffer instanceof MappedByteBuffer) {
            Unmapper.forceAndUnmap((MappedByteBuffer) buffer);
        } else if (buffer.isDirect()) {
            Unmapper.free(buffer);
        }
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
