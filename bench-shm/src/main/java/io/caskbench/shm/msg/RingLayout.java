package io.caskbench.shm.msg;

/**
 * The byte layout of the shared-memory message file and of a UDP datagram: the ONE place it is defined.
 * {@code src/main/c/ring.h} mirrors these constants name for name; RingLayoutTest checks it does.
 *
 * <h2>File</h2>
 * All integers are native byte order (little-endian on x86-64 and aarch64) and naturally aligned.
 * The file is a header page followed by two rings, each starting on a page boundary.
 * <pre>
 * header, HEADER_BYTES = 4096
 *   OFF_MAGIC       0   u64  MAGIC, "CASKRING" in ASCII read as a little-endian u64
 *   OFF_VERSION     8   u32  VERSION
 *   OFF_SLOT_COUNT 12   u32  slots per ring, a power of two
 *   OFF_SLOT_BYTES 16   u32  bytes per slot, a multiple of 64, at least MESSAGE_HEADER_BYTES + payload
 * ring r at ringOffset(r) = HEADER_BYTES + r * ringBytes
 *   r = RING_REQUESTS (0): client to server;  r = RING_REPLIES (1): server to client
 *   RING_HEAD   0    u64  messages ever published, written only by the producer (release)
 *   RING_TAIL   128  u64  messages ever consumed, written only by the consumer (release)
 *   RING_SLOTS  256  slot[slotCount]; message number n lives in slot n &amp; (slotCount - 1)
 *   ringBytes = roundUp(RING_SLOTS + slotCount * slotBytes, 4096)
 * slot (and every UDP datagram: header then payload)
 *   MSG_SEQ      0   u64  sequence number, from 0, one per message the client sends
 *   MSG_LENGTH   8   u32  payload bytes, a multiple of 8
 *   MSG_FLAGS   12   u32  FLAG_* bits
 *   MSG_PAYLOAD 16        payload: u64 word i = seq * PATTERN_MULTIPLIER + i
 * </pre>
 * Head and tail sit 128 bytes apart because adjacent-line prefetch pulls cache lines in pairs: 64
 * bytes apart they would still share a pair and the two cores would fight over it.
 *
 * <h2>Protocol (one producer and one consumer per ring)</h2>
 * <ul>
 *   <li>producer: wait until {@code head - acquire(tail) < slotCount}; write the slot with plain
 *       stores; {@code release(head, head + 1)}.</li>
 *   <li>consumer: wait until {@code acquire(head) > tail}; read the slot; {@code release(tail, tail + 1)}.</li>
 * </ul>
 * Release on the publishing store and acquire on the observing load are what make the slot's plain
 * stores visible before the counter that announces them (Java: {@code VarHandle.setRelease} and
 * {@code getAcquire}; C: {@code __atomic_store_n}/{@code __atomic_load_n} with RELEASE/ACQUIRE).
 * The creator writes the header before it starts the peer, so the header needs no ordering.
 *
 * <h2>Session</h2>
 * The client creates the file, starts the peer (echo: returns each request on the reply ring; sink:
 * consumes and checks), waits for its {@code READY} line, and ends with a message flagged
 * {@link #FLAG_STOP}, after which the peer prints {@code DONE received=<n> lost=<n> errors=<n>} and
 * exits. Over UDP a sink acknowledges every {@link #UDP_ACK_EVERY} messages and every
 * {@link #FLAG_SYNC} message with a header-only datagram flagged {@link #FLAG_ACK} whose MSG_SEQ is
 * the highest sequence received; the client keeps at most {@link #UDP_WINDOW} messages unacknowledged.
 */
public final class RingLayout {

    /** "CASKRING" as a little-endian u64. */
    public static final long MAGIC = 0x474E49524B534143L;
    /** Layout version; bump on any change here and in ring.h. */
    public static final int VERSION = 1;

    /** Size of the header page. */
    public static final int HEADER_BYTES = 4096;
    /** Header: magic. */
    public static final int OFF_MAGIC = 0;
    /** Header: version. */
    public static final int OFF_VERSION = 8;
    /** Header: slots per ring. */
    public static final int OFF_SLOT_COUNT = 12;
    /** Header: bytes per slot. */
    public static final int OFF_SLOT_BYTES = 16;

    /** Ring index of the client-to-server ring. */
    public static final int RING_REQUESTS = 0;
    /** Ring index of the server-to-client ring. */
    public static final int RING_REPLIES = 1;
    /** Ring: producer counter. */
    public static final int RING_HEAD = 0;
    /** Ring: consumer counter. */
    public static final int RING_TAIL = 128;
    /** Ring: first slot. */
    public static final int RING_SLOTS = 256;

    /** Message header: sequence number. */
    public static final int MSG_SEQ = 0;
    /** Message header: payload length. */
    public static final int MSG_LENGTH = 8;
    /** Message header: flags. */
    public static final int MSG_FLAGS = 12;
    /** Message header: first payload byte. */
    public static final int MSG_PAYLOAD = 16;
    /** Bytes of the message header. */
    public static final int MESSAGE_HEADER_BYTES = 16;

    /** Flag: the last message of a session; the peer reports and exits. */
    public static final int FLAG_STOP = 1;
    /** Flag (UDP sink): acknowledge this message at once. */
    public static final int FLAG_SYNC = 2;
    /** Flag (UDP sink to client): an acknowledgement. */
    public static final int FLAG_ACK = 4;

    /** Payload word i of message seq is {@code seq * PATTERN_MULTIPLIER + i} (the 64-bit golden ratio). */
    public static final long PATTERN_MULTIPLIER = 0x9E3779B97F4A7C15L;

    /** UDP sink: acknowledge after this many messages. */
    public static final int UDP_ACK_EVERY = 8;
    /** UDP client: most messages in flight unacknowledged (small enough never to overflow a socket buffer). */
    public static final int UDP_WINDOW = 32;

    private RingLayout() {
    }

    /** Bytes per slot for payloads up to {@code maxPayload}. */
    public static int slotBytes(int maxPayload) {
        return roundUp(MESSAGE_HEADER_BYTES + maxPayload, 64);
    }

    /** Bytes of one ring, counters and slots, page aligned. */
    public static int ringBytes(int slotCount, int slotBytes) {
        return roundUp(RING_SLOTS + slotCount * slotBytes, 4096);
    }

    /** Offset of ring {@code ring} in the file. */
    public static int ringOffset(int ring, int slotCount, int slotBytes) {
        return HEADER_BYTES + ring * ringBytes(slotCount, slotBytes);
    }

    /** Size of the whole file. */
    public static int fileBytes(int slotCount, int slotBytes) {
        return ringOffset(2, slotCount, slotBytes);
    }

    private static int roundUp(int value, int unit) {
        return (value + unit - 1) / unit * unit;
    }
}
