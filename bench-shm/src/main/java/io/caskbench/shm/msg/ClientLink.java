package io.caskbench.shm.msg;

import java.io.Closeable;
import java.io.IOException;

/**
 * The client end of one transport to one peer: what {@link Session} drives. Payload lengths are
 * multiples of 8 up to the session's maximum. Methods fail with {@link PeerStalledException} when the
 * peer stops answering and with {@link IllegalStateException} when an answer is wrong.
 */
interface ClientLink extends Closeable {

    /** Sends message {@code seq} to an echo peer and waits for it to come back intact. */
    void roundTrip(long seq, int length) throws IOException;

    /** Sends message {@code seq} to a sink peer, first waiting for room if the transport is full. */
    void post(long seq, int length) throws IOException;

    /** Waits until the sink has taken every message posted so far. */
    void drain(long nextSeq) throws IOException;

    /** Sends the stop message; the peer then reports and exits. */
    void stop(long seq) throws IOException;
}
