package io.caskbench.raft;

import java.util.Arrays;

/**
 * Threading: stateless, safe everywhere.
 *
 * <p>The bytes of the replies replicas send back: a read's optional value, and a write's flags
 * saying for each operation whether it met a live value.
 */
public final class Replies {

    private Replies() {
    }

    /** A read's reply: 0 for absent, or 1 followed by the value. */
    public static byte[] value(byte[] valueOrNull) {
        if (valueOrNull == null) {
            return new byte[] {0};
        }
        byte[] b = new byte[valueOrNull.length + 1];
        b[0] = 1;
        System.arraycopy(valueOrNull, 0, b, 1, valueOrNull.length);
        return b;
    }

    /** The value in a read's reply, or null for absent. */
    public static byte[] valueOf(byte[] reply) {
        if (reply.length == 0 || reply[0] > 1) {
            throw new IllegalArgumentException("not a read reply");
        }
        return reply[0] == 0 ? null : Arrays.copyOfRange(reply, 1, reply.length);
    }

    /** A write's reply: one byte per operation, 1 when it replaced or removed a live value. */
    public static byte[] flags(boolean[] hadValue) {
        byte[] b = new byte[hadValue.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (hadValue[i] ? 1 : 0);
        }
        return b;
    }
}
