package io.caskbench.raft.client;

import io.caskbench.bitcask.BitCaskException;

/**
 * Threading: an exception, confined to the thread that catches it.
 *
 * <p>No majority of the replicas answered within the client's timeout: there may be no leader
 * (a majority is down or cut off), or the leader cannot reach a majority. A write that failed
 * this way may still be applied later, if the request reached a leader that then committed it;
 * read the key back to learn the outcome.
 */
public class RaftUnavailableException extends BitCaskException {

    private static final long serialVersionUID = 1L;

    /** An exception with a message and the cause Raft's client gave. */
    public RaftUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
