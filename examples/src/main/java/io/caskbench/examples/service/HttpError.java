package io.caskbench.examples.service;

/** A request that is answered with an error status; the message becomes the error body. */
final class HttpError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String allow;

    HttpError(int status, String message) {
        this(status, message, null);
    }

    private HttpError(int status, String message, String allow) {
        super(message, null, false, false);
        this.status = status;
        this.allow = allow;
    }

    /** 405, with the methods the resource does accept for the {@code Allow} header. */
    static HttpError methodNotAllowed(String method, String allow) {
        return new HttpError(405, "method " + method + " not allowed here; allowed: " + allow, allow);
    }

    int status() {
        return status;
    }

    /** The {@code Allow} header value of a 405, else null. */
    String allow() {
        return allow;
    }
}
