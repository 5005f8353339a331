package io.caskbench.examples.service;

/**
 * A request that is answered with an error status. It becomes an RFC 9457 problem: the message is
 * its {@code detail}, so it must say what was wrong in the client's terms, never in the server's.
 */
final class HttpError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String allow;
    private final long retryAfterSeconds;

    HttpError(int status, String message) {
        this(status, message, null, -1);
    }

    private HttpError(int status, String message, String allow, long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.allow = allow;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** 405, with the methods the resource does accept for the {@code Allow} header. */
    static HttpError methodNotAllowed(String method, String allow) {
        return new HttpError(405, "method " + method + " not allowed here; allowed: " + allow, allow, -1);
    }

    /** 503 with a {@code Retry-After} of {@code seconds} (at least 1). */
    static HttpError unavailable(String message, long seconds) {
        return new HttpError(503, message, null, Math.max(1, seconds));
    }

    int status() {
        return status;
    }

    /** The {@code Allow} header value of a 405, else null. */
    String allow() {
        return allow;
    }

    /** The {@code Retry-After} seconds of a 503, else -1. */
    long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
