package io.caskbench.shm.msg;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;

/** What the UDP client and the Java UDP peer share: loopback only, same buffer sizes, same headers. */
final class Udp {

    /** Requested socket buffer size; the kernel may cap it (net.core.rmem_max). */
    static final int SOCKET_BUFFER = 1 << 20;
    /** Receive buffer of a peer: any datagram fits, so a wrong length shows up as an error, not a cut. */
    static final int MAX_DATAGRAM = 65_536;

    private Udp() {
    }

    /** 127.0.0.1, spelled out: never a name lookup, never IPv6, never another interface. */
    static InetAddress loopback() {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** A blocking IPv4 channel bound to 127.0.0.1 on an ephemeral port. */
    static DatagramChannel open() throws IOException {
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        ch.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
        ch.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
        ch.bind(new InetSocketAddress(loopback(), 0));
        return ch;
    }

    /** A direct buffer in native order for one datagram of up to {@code maxPayload} payload bytes. */
    static ByteBuffer datagram(int maxPayload) {
        return ByteBuffer.allocateDirect(RingLayout.MESSAGE_HEADER_BYTES + maxPayload).order(ByteOrder.nativeOrder());
    }

    /** Writes a message header at the start of {@code b}. */
    static void header(ByteBuffer b, long seq, int length, int flags) {
        b.putLong(RingLayout.MSG_SEQ, seq);
        b.putInt(RingLayout.MSG_LENGTH, length);
        b.putInt(RingLayout.MSG_FLAGS, flags);
    }
}
