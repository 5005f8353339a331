package io.caskbench.shm.msg;

import static io.caskbench.shm.msg.RingLayout.RING_HEAD;
import static io.caskbench.shm.msg.RingLayout.RING_SLOTS;
import static io.caskbench.shm.msg.RingLayout.RING_TAIL;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One end of one single-producer single-consumer ring of {@link RingLayout}. An instance is either the
 * producer ({@link #claim}, {@link #publish}) or the consumer ({@link #await}, {@link #release}),
 * never both; the other end is another process.
 *
 * <p>Each side keeps its own counter in a field and caches the other side's, re-reading the shared one
 * (with acquire) only when the cache says the ring is full or empty: most operations then touch the
 * shared counter line once, on publishing.
 */
final class ShmRing {

    private static final VarHandle LONGS =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final ByteBuffer file;
    private final int base;
    private final int slotCount;
    private final int slotBytes;
    private final Idle idle;
    private long mine;
    private long theirs;

    ShmRing(ByteBuffer file, int ring, int slotCount, int slotBytes, Idle idle) {
        this.file = file;
        this.base = RingLayout.ringOffset(ring, slotCount, slotBytes);
        this.slotCount = slotCount;
        this.slotBytes = slotBytes;
        this.idle = idle;
    }

    /** The mapped file; slot offsets returned here index into it. */
    ByteBuffer file() {
        return file;
    }

    /** Producer: waits for a free slot and returns its offset in the file. */
    int claim() {
        if (mine - theirs >= slotCount) {
            idle.reset();
            while (mine - (theirs = (long) LONGS.getAcquire(file, base + RING_TAIL)) >= slotCount) {
                idle.idle();
            }
        }
        return slot(mine);
    }

    /** Producer: makes the claimed slot visible to the consumer. */
    void publish() {
        LONGS.setRelease(file, base + RING_HEAD, ++mine);
    }

    /** Producer: waits until the consumer has taken everything published. */
    void awaitDrained() {
        idle.reset();
        while ((theirs = (long) LONGS.getAcquire(file, base + RING_TAIL)) != mine) {
            idle.idle();
        }
    }

    /** Consumer: waits for the next message and returns its slot's offset in the file. */
    int await() {
        if (theirs <= mine) {
            idle.reset();
            while ((theirs = (long) LONGS.getAcquire(file, base + RING_HEAD)) <= mine) {
                idle.idle();
            }
        }
        return slot(mine);
    }

    /** Consumer: hands the slot returned by {@link #await} back to the producer. */
    void release() {
        LONGS.setRelease(file, base + RING_TAIL, ++mine);
    }

    private int slot(long n) {
        return base + RING_SLOTS + (int) (n & (slotCount - 1)) * slotBytes;
    }
}
