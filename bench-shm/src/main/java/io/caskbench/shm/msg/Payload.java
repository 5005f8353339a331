package io.caskbench.shm.msg;

import java.nio.ByteBuffer;

/**
 * Writes and checks message payloads ({@link RingLayout}: word i of message seq is
 * {@code seq * PATTERN_MULTIPLIER + i}). Every word differs between messages, so a reader that sees
 * parts of two messages (a torn read) fails the full check. Buffers must be in native byte order.
 */
final class Payload {

    private Payload() {
    }

    /** Writes the payload of message {@code seq} ({@code length} bytes, a multiple of 8) at {@code offset}. */
    static void fill(ByteBuffer b, int offset, long seq, int length) {
        long base = seq * RingLayout.PATTERN_MULTIPLIER;
        for (int i = 0; i < length; i += 8) {
            b.putLong(offset + i, base + (i >>> 3));
        }
    }

    /** Whether every word of the payload at {@code offset} belongs to message {@code seq}. */
    static boolean intact(ByteBuffer b, int offset, long seq, int length) {
        long base = seq * RingLayout.PATTERN_MULTIPLIER;
        for (int i = 0; i < length; i += 8) {
            if (b.getLong(offset + i) != base + (i >>> 3)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The cheap check used while measuring: first and last word only. It catches a message that is
     * missing or misplaced, not a torn middle; the correctness tests run {@link #intact} on every message.
     */
    static boolean endsIntact(ByteBuffer b, int offset, long seq, int length) {
        long base = seq * RingLayout.PATTERN_MULTIPLIER;
        int last = length - 8;
        return b.getLong(offset) == base && b.getLong(offset + last) == base + (last >>> 3);
    }

    /** {@link #intact} when {@code full}, else {@link #endsIntact}. */
    static boolean check(ByteBuffer b, int offset, long seq, int length, boolean full) {
        return full ? intact(b, offset, seq, length) : endsIntact(b, offset, seq, length);
    }
}
