package io.caskbench.raft.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Threading: immutable, safe everywhere (the arrays are not copied and must not be changed).
 *
 * <p>A write sent through the Raft log: one or more puts and deletes applied atomically. A client
 * sends TTLs as durations; the leader turns each into an absolute expiry before the entry enters
 * the log, so every replica, and every replay of the log, stores the same expiry.
 */
public final class Command {

    /** Marks an entry whose TTLs are durations still to be fixed by the leader. */
    private static final byte RELATIVE = 'R';
    /** Marks an entry whose TTLs are absolute expiry times in epoch milliseconds. */
    private static final byte ABSOLUTE = 'A';

    /** The operations in order; a value of null is a delete. */
    private final List<Op> ops;
    /** True once the leader has fixed every TTL as an absolute time. */
    private final boolean absolute;

    /**
     * One put or delete.
     *
     * @param key    the user's key
     * @param value  the value, or null for a delete
     * @param expiry 0 for no TTL; the TTL in milliseconds while relative, the epoch-millisecond
     *               expiry once absolute
     */
    public record Op(byte[] key, byte[] value, long expiry) {
        /** An operation; the key must not be null. */
        public Op {
            Objects.requireNonNull(key, "key");
        }

        /** True for a delete. */
        public boolean isDelete() {
            return value == null;
        }
    }

    private Command(List<Op> ops, boolean absolute) {
        this.ops = Collections.unmodifiableList(ops);
        this.absolute = absolute;
    }

    /** A command from a client, TTLs as durations in milliseconds. */
    public static Command relative(List<Op> ops) {
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("a command needs at least one operation");
        }
        return new Command(new ArrayList<>(ops), false);
    }

    /** The operations. */
    public List<Op> ops() {
        return ops;
    }

    /** True once every TTL is an absolute expiry time. */
    public boolean isAbsolute() {
        return absolute;
    }

    /** This command with each TTL fixed as {@code nowMillis} plus the duration; itself when already absolute. */
    public Command fixExpiry(long nowMillis) {
        if (absolute) {
            return this;
        }
        List<Op> fixed = new ArrayList<>(ops.size());
        for (Op op : ops) {
            fixed.add(op.expiry() > 0 ? new Op(op.key(), op.value(), Math.addExact(nowMillis, op.expiry())) : op);
        }
        return new Command(fixed, true);
    }

    /** The length of {@link #encode()}'s bytes, computed without encoding: 5, and 16 besides the key and value per operation. */
    public long encodedSize() {
        long size = 1 + Integer.BYTES;
        for (Op op : ops) {
            size += Integer.BYTES + op.key().length + Long.BYTES + Integer.BYTES + (op.isDelete() ? 0 : op.value().length);
        }
        return size;
    }

    /** The encoded bytes. */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(absolute ? ABSOLUTE : RELATIVE);
            out.writeInt(ops.size());
            for (Op op : ops) {
                out.writeInt(op.key().length);
                out.write(op.key());
                out.writeLong(op.expiry());
                out.writeInt(op.isDelete() ? -1 : op.value().length);
                if (!op.isDelete()) {
                    out.write(op.value());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes what {@link #encode()} wrote.
     *
     * @throws IllegalArgumentException when the bytes are not a command
     */
    public static Command decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
            byte kind = in.readByte();
            if (kind != ABSOLUTE && kind != RELATIVE) {
                throw new IllegalArgumentException("not a command: kind " + kind);
            }
            int count = in.readInt();
            if (count <= 0 || count > data.length) {
                throw new IllegalArgumentException("not a command: " + count + " operations");
            }
            List<Op> ops = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] key = readBytes(in, in.readInt(), data.length);
                long expiry = in.readLong();
                int valueLength = in.readInt();
                byte[] value = valueLength == -1 ? null : readBytes(in, valueLength, data.length);
                ops.add(new Op(key, value, expiry));
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException("not a command: " + in.available() + " trailing bytes");
            }
            return new Command(ops, kind == ABSOLUTE);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a command: " + e.getMessage(), e);
        }
    }

    private static byte[] readBytes(DataInputStream in, int length, int limit) throws IOException {
        if (length < 0 || length > limit) {
            throw new IllegalArgumentException("not a command: length " + length);
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }
}
