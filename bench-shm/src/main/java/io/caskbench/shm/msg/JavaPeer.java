package io.caskbench.shm.msg;

import static io.caskbench.shm.msg.RingLayout.FLAG_ACK;
import static io.caskbench.shm.msg.RingLayout.FLAG_STOP;
import static io.caskbench.shm.msg.RingLayout.FLAG_SYNC;
import static io.caskbench.shm.msg.RingLayout.MESSAGE_HEADER_BYTES;
import static io.caskbench.shm.msg.RingLayout.MSG_FLAGS;
import static io.caskbench.shm.msg.RingLayout.MSG_LENGTH;
import static io.caskbench.shm.msg.RingLayout.MSG_PAYLOAD;
import static io.caskbench.shm.msg.RingLayout.MSG_SEQ;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;

/**
 * The Java peer's two loops, echo and sink, over shared memory and over UDP. msg_peer.c has the same
 * loops in C; {@link PeerMain} is the process around them.
 */
final class JavaPeer {

    private JavaPeer() {
    }

    /** Serves the ring file at {@code path} until the stop message; prints READY once attached. */
    static Report serveShm(Path path, boolean echo, boolean fullCheck, long stallMillis, PrintStream out)
            throws IOException {
        try (ShmFile file = ShmFile.open(path)) {
            ByteBuffer b = file.buffer();
            ShmRing requests = file.ring(RingLayout.RING_REQUESTS, new Idle(stallMillis, "a request"));
            ShmRing replies = file.ring(RingLayout.RING_REPLIES, new Idle(stallMillis, "room for a reply"));
            ByteBuffer local = ByteBuffer.allocateDirect(file.maxPayload()).order(ByteOrder.nativeOrder());
            Report.Tally tally = new Report.Tally();
            out.println("READY");
            out.flush();
            while (true) {
                int s = requests.await();
                long seq = b.getLong(s + MSG_SEQ);
                int length = b.getInt(s + MSG_LENGTH);
                if ((b.getInt(s + MSG_FLAGS) & FLAG_STOP) != 0) {
                    requests.release();
                    return tally.report();
                }
                boolean sane = length >= 8 && length <= file.maxPayload() && (length & 7) == 0;
                if (echo) {
                    tally.count(seq, sane && (!fullCheck || Payload.intact(b, s + MSG_PAYLOAD, seq, length)));
                    int r = replies.claim();
                    b.putLong(r + MSG_SEQ, seq);
                    b.putInt(r + MSG_LENGTH, length);
                    b.putInt(r + MSG_FLAGS, 0);
                    b.put(r + MSG_PAYLOAD, b, s + MSG_PAYLOAD, sane ? length : 0);
                    replies.publish();
                    requests.release();
                } else {
                    if (sane) {
                        local.put(0, b, s + MSG_PAYLOAD, length);
                    }
                    requests.release();
                    tally.count(seq, sane && Payload.check(local, 0, seq, length, fullCheck));
                }
            }
        }
    }

    /**
     * Serves UDP on 127.0.0.1 until the stop message; prints {@code READY <port>} once bound. Blocking
     * reads have no timeout: {@link PeerMain}'s guards end the process if the client goes away. With
     * {@code poll} the socket is non-blocking and waited on with {@link Idle}, as the shared-memory
     * peer waits, which gives up after the stall limit.
     */
    static Report serveUdp(boolean echo, boolean fullCheck, boolean poll, long stallMillis, PrintStream out)
            throws IOException {
        try (DatagramChannel ch = Udp.open()) {
            ch.configureBlocking(!poll);
            Idle idle = poll ? new Idle(stallMillis, "a datagram") : null;
            ByteBuffer buf = Udp.datagram(Udp.MAX_DATAGRAM - RingLayout.MESSAGE_HEADER_BYTES);
            ByteBuffer ack = Udp.datagram(0);
            Report.Tally tally = new Report.Tally();
            out.println("READY " + ((InetSocketAddress) ch.getLocalAddress()).getPort());
            out.flush();
            // Not connect(): the JDK's connect discards datagrams already queued, which loses messages.
            SocketAddress client = receive(ch, buf, idle);
            while (true) {
                buf.flip();
                long seq = buf.getLong(MSG_SEQ);
                int length = buf.getInt(MSG_LENGTH);
                int flags = buf.getInt(MSG_FLAGS);
                if ((flags & FLAG_STOP) != 0) {
                    return tally.report();
                }
                if ((flags & FLAG_SYNC) != 0) {
                    Udp.header(ack.clear(), tally.highest(), 0, FLAG_ACK | FLAG_SYNC);
                    send(ch, ack.limit(MESSAGE_HEADER_BYTES), client, idle);
                } else {
                    boolean sane = length >= 8 && (length & 7) == 0 && buf.limit() == MESSAGE_HEADER_BYTES + length;
                    tally.count(seq, sane && Payload.check(buf, MSG_PAYLOAD, seq, length, fullCheck));
                    if (echo) {
                        send(ch, buf.position(0), client, idle);
                    } else if (tally.received() % RingLayout.UDP_ACK_EVERY == 0) {
                        Udp.header(ack.clear(), tally.highest(), 0, FLAG_ACK);
                        send(ch, ack.limit(MESSAGE_HEADER_BYTES), client, idle);
                    }
                }
                buf.clear();
                client = receive(ch, buf, idle);
            }
        }
    }

    /** The next datagram; a polled socket ({@code idle} not null) is asked until one is there. */
    private static SocketAddress receive(DatagramChannel ch, ByteBuffer buf, Idle idle) throws IOException {
        if (idle == null) {
            return ch.receive(buf);
        }
        idle.reset();
        SocketAddress from;
        while ((from = ch.receive(buf)) == null) {
            idle.idle();
        }
        return from;
    }

    /** Sends one datagram; a polled socket with a full send buffer is retried until it takes it. */
    private static void send(DatagramChannel ch, ByteBuffer datagram, SocketAddress to, Idle idle) throws IOException {
        if (idle == null) {
            ch.send(datagram, to);
            return;
        }
        idle.reset();
        while (ch.send(datagram, to) == 0) {
            idle.idle();
        }
    }
}
