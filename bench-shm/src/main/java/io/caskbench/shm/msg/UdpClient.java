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
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Client over a connected UDP socket on 127.0.0.1: blocking, what a Java program talking to AFL over
 * UDP would do, or non-blocking and polled with the shared-memory side's {@link Idle} wait (spin, yield,
 * nap), so that shared memory and UDP can be compared with the same way of waiting. Flow control for the
 * sink is a window of {@link RingLayout#UDP_WINDOW} messages so the peer's socket buffer never
 * overflows (an overflow would silently drop datagrams).
 *
 * <p>Blocking reads have no timeout in the channel API, so a watchdog closes the channel when one
 * lasts longer than the stall limit; the read then fails and is reported as a stall. Polled reads give
 * up through {@link Idle}.
 */
final class UdpClient implements ClientLink {

    private final DatagramChannel ch;
    private final ByteBuffer send;
    private final ByteBuffer receive;
    private final boolean fullCheck;
    private final long stallNanos;
    private final AtomicLong readingSince = new AtomicLong();
    private final ScheduledExecutorService watchdog;
    /** Non-null when the socket is non-blocking and polled. */
    private final Idle spin;
    private volatile boolean stalled;
    private long acked;

    UdpClient(int port, int maxPayload, long stallMillis, boolean fullCheck, boolean poll) throws IOException {
        this.ch = Udp.open();
        ch.connect(new InetSocketAddress(Udp.loopback(), port));
        ch.configureBlocking(!poll);
        this.spin = poll ? new Idle(stallMillis, "a UDP answer") : null;
        this.send = Udp.datagram(maxPayload);
        this.receive = Udp.datagram(maxPayload);
        this.fullCheck = fullCheck;
        this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "udp-watchdog");
            t.setDaemon(true);
            return t;
        });
        watchdog.scheduleWithFixedDelay(this::check, 100, 100, TimeUnit.MILLISECONDS);
    }

    private void check() {
        long since = readingSince.get();
        if (since != 0 && System.nanoTime() - since > stallNanos) {
            stalled = true;
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing is the alarm; the reader reports it
            }
        }
    }

    @Override
    public void roundTrip(long seq, int length) throws IOException {
        compose(seq, length, 0);
        write(send);
        read();
        long echoSeq = receive.getLong(MSG_SEQ);
        if (echoSeq != seq || receive.getInt(MSG_LENGTH) != length || receive.limit() != MESSAGE_HEADER_BYTES + length
                || !Payload.check(receive, MSG_PAYLOAD, seq, length, fullCheck)) {
            throw new IllegalStateException("echo of message " + seq + " came back as " + echoSeq + " or torn");
        }
    }

    @Override
    public void post(long seq, int length) throws IOException {
        while (seq - acked >= RingLayout.UDP_WINDOW) {
            readAck();
        }
        compose(seq, length, 0);
        write(send);
    }

    @Override
    public void drain(long nextSeq) throws IOException {
        Udp.header(send.clear(), nextSeq, 0, FLAG_SYNC);
        write(send.limit(MESSAGE_HEADER_BYTES));
        while ((readAck() & FLAG_SYNC) == 0) {
            // earlier acks still queued; the SYNC answer is the last one
        }
    }

    @Override
    public void stop(long seq) throws IOException {
        Udp.header(send.clear(), seq, 0, FLAG_STOP);
        write(send.limit(MESSAGE_HEADER_BYTES));
    }

    /** Reads one acknowledgement, advances the window, returns its flags. */
    private int readAck() throws IOException {
        read();
        int flags = receive.getInt(MSG_FLAGS);
        if ((flags & FLAG_ACK) == 0) {
            throw new IllegalStateException("expected an acknowledgement, got flags " + flags);
        }
        acked = Math.max(acked, receive.getLong(MSG_SEQ) + 1);
        return flags;
    }

    private void compose(long seq, int length, int flags) {
        send.clear();
        Udp.header(send, seq, length, flags);
        Payload.fill(send, MSG_PAYLOAD, seq, length);
        send.limit(MESSAGE_HEADER_BYTES + length);
    }

    /** Sends one datagram; a polled socket with a full send buffer is retried until it takes it. */
    private void write(ByteBuffer datagram) throws IOException {
        if (spin == null) {
            ch.write(datagram);
            return;
        }
        spin.reset();
        while (ch.write(datagram) == 0) {
            spin.idle();
        }
    }

    private void read() throws IOException {
        receive.clear();
        if (spin != null) {
            spin.reset();
            while (ch.read(receive) == 0) {
                spin.idle();
            }
            receive.flip();
            return;
        }
        readingSince.lazySet(System.nanoTime());
        try {
            ch.read(receive);
        } catch (ClosedChannelException e) {
            if (stalled) {
                throw new PeerStalledException("no UDP answer for " + TimeUnit.NANOSECONDS.toMillis(stallNanos) + " ms");
            }
            throw e;
        } finally {
            readingSince.lazySet(0);
        }
        receive.flip();
    }

    @Override
    public void close() throws IOException {
        watchdog.shutdownNow();
        ch.close();
    }
}
