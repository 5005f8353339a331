package io.caskbench.shm.msg;

/** The other side made no progress for longer than the stall limit: it died, hung or never started. */
public class PeerStalledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With a message saying what was awaited. */
    public PeerStalledException(String message) {
        super(message);
    }
}
