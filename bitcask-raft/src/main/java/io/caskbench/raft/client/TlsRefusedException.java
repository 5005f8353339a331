package io.caskbench.raft.client;

import javax.net.ssl.SSLException;

/**
 * Threading: an exception, confined to the thread that catches it.
 *
 * <p>A majority of the replicas refused this client's TLS handshake, or this client refused
 * theirs: a certificate signed by an authority the other side does not trust, a missing client
 * certificate, or TLS on one side only. Retrying cannot help, so the call stops at once; the
 * message names the cause the TLS layer gave. A refused handshake delivers no request, but an
 * earlier attempt of the same write may have reached a replica that accepted it.
 */
public class TlsRefusedException extends RaftUnavailableException {

    private static final long serialVersionUID = 1L;
    /** The longest message of a cause quoted; netty's quote the bytes it could not read. */
    private static final int QUOTE = 160;

    /** An exception with a message naming the TLS cause, and that cause. */
    public TlsRefusedException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The TLS failure in {@code chain}, or null when there is none: an {@link SSLException} (an
     * untrusted certificate, a refused or missing one, or netty's {@code NotSslRecordException}
     * when the other side does not speak TLS).
     */
    static Throwable handshakeFailure(Throwable chain) {
        for (Throwable t = chain; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return t;
            }
        }
        return null;
    }

    /** The TLS failure {@code tls} in words: its class and message, and its deepest cause's message. */
    static String describe(Throwable tls) {
        Throwable root = tls;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        StringBuilder s = new StringBuilder(tls.getClass().getSimpleName()).append(": ").append(quote(tls.getMessage()));
        if (root != tls) {
            s.append("; cause: ").append(quote(root.getMessage()));
        }
        // Netty is shaded inside Ratis: its exception is known by its name.
        if (tls.getClass().getSimpleName().equals("NotSslRecordException")) {
            s.append(" (the replica does not speak TLS)");
        }
        return s.toString();
    }

    private static String quote(String message) {
        if (message == null) {
            return "(no message)";
        }
        return message.length() <= QUOTE ? message : message.substring(0, QUOTE) + "...";
    }
}
