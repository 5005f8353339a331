package io.caskbench.raft;

import io.caskbench.bitcask.BitCaskOptions;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;

import java.util.Objects;

/**
 * Threading: stateless, safe everywhere.
 *
 * <p>The limits of the replicated store, and the Raft settings they need: the one place both are
 * set. A client refuses a key, a value or a write over them before it sends anything; the leader
 * checks again before an entry enters the log; every replica's local store, Raft log and gRPC
 * transport are sized from them, so whatever passes the check is replicated.
 *
 * <p>A write is the encoded command a put, delete or batch sends: 16 bytes per operation besides
 * its key and value, and 5 bytes for the whole. Its limit leaves room for the largest value under
 * the longest key, or a batch of as many bytes.
 */
public final class RaftLimits {

    /** The longest key, in bytes: the single-node store's default. */
    public static final int MAX_KEY_BYTES = BitCaskOptions.DEFAULT_MAX_KEY_SIZE;
    /** The largest value, in bytes: the single-node store's default, 16 MiB. */
    public static final int MAX_VALUE_BYTES = BitCaskOptions.DEFAULT_MAX_VALUE_SIZE;
    /** The largest write, in encoded bytes: the largest value, the longest key and 63 KiB to spare. */
    public static final int MAX_WRITE_BYTES = MAX_VALUE_BYTES + (64 << 10);
    /**
     * The largest Raft log entry, in bytes: a write and the entry's own fields (term, index,
     * client and call ids), which take far less than the 64 KiB added here.
     */
    public static final int MAX_ENTRY_BYTES = MAX_WRITE_BYTES + (64 << 10);
    /** The largest gRPC message: an entry, and the 1 MiB Ratis requires above the appender's buffer. */
    static final int MAX_MESSAGE_BYTES = MAX_ENTRY_BYTES + (2 << 20);

    private RaftLimits() {
    }

    /**
     * Checks a key to read, write or delete.
     *
     * @return the key
     * @throws IllegalArgumentException when it is empty or longer than {@link #MAX_KEY_BYTES}
     */
    public static byte[] checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0 || key.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("key of " + key.length + " bytes: must be 1 to " + MAX_KEY_BYTES);
        }
        return key;
    }

    /**
     * Checks a value to put.
     *
     * @throws IllegalArgumentException when it is longer than {@link #MAX_VALUE_BYTES}
     */
    public static void checkValue(byte[] value) {
        Objects.requireNonNull(value, "value");
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("value of " + value.length + " bytes: at most " + MAX_VALUE_BYTES);
        }
    }

    /**
     * Checks the encoded size of a write.
     *
     * @throws IllegalArgumentException when it is over {@link #MAX_WRITE_BYTES}
     */
    public static void checkWrite(long encodedBytes) {
        if (encodedBytes > MAX_WRITE_BYTES) {
            throw new IllegalArgumentException("write of " + encodedBytes + " bytes (keys, values and 16 bytes an operation): at most "
                    + MAX_WRITE_BYTES);
        }
    }

    /**
     * Sizes a replica's Raft log and transport for the largest entry: the appender's buffer (which
     * is also the largest entry the log takes, 4 MiB by default), the log's write buffer, and the
     * largest gRPC message (a client's request, an append of entries, a read's reply).
     */
    public static void applyToReplica(RaftProperties p) {
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(MAX_ENTRY_BYTES));
        // The log writes an entry with its length and checksum, 8 bytes, through this buffer.
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(MAX_ENTRY_BYTES + 8));
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(MAX_MESSAGE_BYTES));
    }

    /** Sizes a client's transport for the largest request and reply. */
    public static void applyToClient(RaftProperties p) {
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(MAX_MESSAGE_BYTES));
    }
}
