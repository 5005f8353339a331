package io.caskbench.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Where a benchmark region lives. The names are the JMH {@code backing} parameter values.
 *
 * <p>The mapped kinds create their file with {@link Files#createTempFile} in a directory taken from a
 * system property, so a run never reuses or clobbers someone else's file.
 */
public enum Backing {
    /** A file on disk mapped READ_WRITE (directory: {@code caskbench.shm.diskDir}, default java.io.tmpdir). */
    DISK,
    /** A file in tmpfs mapped READ_WRITE (directory: {@code caskbench.shm.shmDir}, default /dev/shm). */
    SHM,
    /** {@link ByteBuffer#allocateDirect}: native memory that no other process can see. */
    DIRECT,
    /** {@link ByteBuffer#wrap} of a heap array. */
    HEAP;

    /** Directory for {@link #DISK} files. */
    public static Path diskDir() {
        return Path.of(System.getProperty("caskbench.shm.diskDir", System.getProperty("java.io.tmpdir")));
    }

    /** Directory for {@link #SHM} files. */
    public static Path shmDir() {
        return Path.of(System.getProperty("caskbench.shm.shmDir", "/dev/shm"));
    }

    /** The lower-case name used as JMH parameter value and in result files. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The backing with the given {@link #label()}. */
    public static Backing of(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }

    /**
     * Allocates a region of {@code bytes} bytes, every page touched once so that the first measured
     * writes do not pay page faults (or, on disk, block allocation).
     */
    public Region open(int bytes) {
        try {
            switch (this) {
                case DISK:
                    return mapped(diskDir(), bytes);
                case SHM:
                    return mapped(shmDir(), bytes);
                case DIRECT:
                    return new Region(this, touch(ByteBuffer.allocateDirect(bytes)), null);
                case HEAP:
                    return new Region(this, ByteBuffer.wrap(new byte[bytes]), null);
                default:
                    throw new AssertionError(this);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot allocate a " + label() + " region", e);
        }
    }

    private Region mapped(Path dir, int bytes) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("no directory " + dir + " for the " + label() + " backing");
        }
        Path file = Files.createTempFile(dir, "caskbench-region-", ".bin");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
            return new Region(this, touch(buffer), file);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    private static ByteBuffer touch(ByteBuffer buffer) {
        for (int i = 0; i < buffer.capacity(); i += 4096) {
            buffer.put(i, (byte) 0);
        }
        return buffer;
    }
}
