package io.caskbench.shm.msg;

import static io.caskbench.shm.msg.RingLayout.MAGIC;
import static io.caskbench.shm.msg.RingLayout.OFF_MAGIC;
import static io.caskbench.shm.msg.RingLayout.OFF_SLOT_BYTES;
import static io.caskbench.shm.msg.RingLayout.OFF_SLOT_COUNT;
import static io.caskbench.shm.msg.RingLayout.OFF_VERSION;
import static io.caskbench.shm.msg.RingLayout.VERSION;

import io.caskbench.shm.Unmapper;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A mapped message file of {@link RingLayout}: created (and deleted at close) by the client, opened
 * by the peer.
 */
final class ShmFile implements AutoCloseable {

    private final Path path;
    private final MappedByteBuffer buffer;
    private final int slotCount;
    private final int slotBytes;
    private final boolean owner;

    private ShmFile(Path path, MappedByteBuffer buffer, int slotCount, int slotBytes, boolean owner) {
        this.path = path;
        this.buffer = buffer;
        this.slotCount = slotCount;
        this.slotBytes = slotBytes;
        this.owner = owner;
    }

    /** Creates a new file in {@code dir} with two empty rings and a filled-in header. */
    static ShmFile create(Path dir, int slotCount, int maxPayload) throws IOException {
        if (Integer.bitCount(slotCount) != 1) {
            throw new IllegalArgumentException("slot count must be a power of two: " + slotCount);
        }
        int slotBytes = RingLayout.slotBytes(maxPayload);
        Path path = Files.createTempFile(dir, "caskbench-ring-", ".shm");
        try {
            MappedByteBuffer b = map(path, RingLayout.fileBytes(slotCount, slotBytes));
            b.putLong(OFF_MAGIC, MAGIC);
            b.putInt(OFF_VERSION, VERSION);
            b.putInt(OFF_SLOT_COUNT, slotCount);
            b.putInt(OFF_SLOT_BYTES, slotBytes);
            return new ShmFile(path, b, slotCount, slotBytes, true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** Opens a file made by {@link #create}, checking its header. */
    static ShmFile open(Path path) throws IOException {
        MappedByteBuffer b = map(path, Math.toIntExact(Files.size(path)));
        if (b.getLong(OFF_MAGIC) != MAGIC || b.getInt(OFF_VERSION) != VERSION) {
            throw new IOException(path + " is not a version " + VERSION + " caskbench ring file");
        }
        int slotCount = b.getInt(OFF_SLOT_COUNT);
        int slotBytes = b.getInt(OFF_SLOT_BYTES);
        if (RingLayout.fileBytes(slotCount, slotBytes) != b.capacity()) {
            throw new IOException(path + ": size does not match its header");
        }
        return new ShmFile(path, b, slotCount, slotBytes, false);
    }

    private static MappedByteBuffer map(Path path, int bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
            b.order(ByteOrder.nativeOrder());
            return b;
        }
    }

    /** The file's path. */
    Path path() {
        return path;
    }

    /** The mapped file, native byte order. */
    MappedByteBuffer buffer() {
        return buffer;
    }

    /** Largest payload a slot holds. */
    int maxPayload() {
        return slotBytes - RingLayout.MESSAGE_HEADER_BYTES;
    }

    /** One end of ring {@code ring}. */
    ShmRing ring(int ring, Idle idle) {
        return new ShmRing(buffer, ring, slotCount, slotBytes, idle);
    }

    /** Unmaps; the creator also deletes the file. */
    @Override
    public void close() throws IOException {
        Unmapper.forceAndUnmap(buffer);
        if (owner) {
            Files.deleteIfExists(path);
        }
    }
}
