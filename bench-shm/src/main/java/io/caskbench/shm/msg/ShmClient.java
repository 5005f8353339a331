package io.caskbench.shm.msg;

import static io.caskbench.shm.msg.RingLayout.MSG_FLAGS;
import static io.caskbench.shm.msg.RingLayout.MSG_LENGTH;
import static io.caskbench.shm.msg.RingLayout.MSG_PAYLOAD;
import static io.caskbench.shm.msg.RingLayout.MSG_SEQ;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Client over a {@link ShmFile}: producer of the request ring, consumer of the reply ring. It composes
 * each message in its slot (no staging copy: that is the point of shared memory) and copies echoes out
 * before releasing their slot, as a real receiver must.
 */
final class ShmClient implements ClientLink {

    private final ShmFile file;
    private final ByteBuffer b;
    private final ShmRing requests;
    private final ShmRing replies;
    private final ByteBuffer local;
    private final boolean fullCheck;

    ShmClient(ShmFile file, long stallMillis, boolean fullCheck) {
        this.file = file;
        this.b = file.buffer();
        this.requests = file.ring(RingLayout.RING_REQUESTS, new Idle(stallMillis, "room in the request ring"));
        this.replies = file.ring(RingLayout.RING_REPLIES, new Idle(stallMillis, "an echo on the reply ring"));
        this.local = ByteBuffer.allocateDirect(file.maxPayload()).order(ByteOrder.nativeOrder());
        this.fullCheck = fullCheck;
    }

    @Override
    public void roundTrip(long seq, int length) {
        post(seq, length);
        int r = replies.await();
        long echoSeq = b.getLong(r + MSG_SEQ);
        int echoLength = b.getInt(r + MSG_LENGTH);
        if (echoLength != length) {
            throw new IllegalStateException("echo of " + seq + " has length " + echoLength);
        }
        local.put(0, b, r + MSG_PAYLOAD, length);
        replies.release();
        if (echoSeq != seq || !Payload.check(local, 0, seq, length, fullCheck)) {
            throw new IllegalStateException("echo of message " + seq + " came back as " + echoSeq + " or torn");
        }
    }

    @Override
    public void post(long seq, int length) {
        int s = requests.claim();
        b.putLong(s + MSG_SEQ, seq);
        b.putInt(s + MSG_LENGTH, length);
        b.putInt(s + MSG_FLAGS, 0);
        Payload.fill(b, s + MSG_PAYLOAD, seq, length);
        requests.publish();
    }

    @Override
    public void drain(long nextSeq) {
        requests.awaitDrained();
    }

    @Override
    public void stop(long seq) {
        int s = requests.claim();
        b.putLong(s + MSG_SEQ, seq);
        b.putInt(s + MSG_LENGTH, 0);
        b.putInt(s + MSG_FLAGS, RingLayout.FLAG_STOP);
        requests.publish();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
