package io.caskbench.examples.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.caskbench.examples.service.ApiJson.Problem;

import java.util.HashMap;
import java.util.Map;

/** A response: status, body (null for none) of the given media type, and extra headers. */
record Reply(int status, byte[] body, String contentType, Map<String, String> headers) {

    static Reply json(int status, Object body, Map<String, String> headers) {
        return new Reply(status, bytes(body), "application/json", headers);
    }

    /** The RFC 9457 problem of an error, with its {@code Allow} or {@code Retry-After} header. */
    static Reply problem(HttpError e, String path) {
        Map<String, String> headers = new HashMap<>();
        if (e.allow() != null) {
            headers.put("Allow", e.allow());
        }
        if (e.retryAfterSeconds() > 0) {
            headers.put("Retry-After", Long.toString(e.retryAfterSeconds()));
        }
        Problem body = new Problem("about:blank", title(e.status()), e.status(), e.getMessage(), path);
        return new Reply(e.status(), bytes(body), "application/problem+json", headers);
    }

    private static byte[] bytes(Object body) {
        try {
            return ApiJson.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + body.getClass().getSimpleName(), e);
        }
    }

    private static String title(int status) {
        switch (status) {
            case 400: return "Bad Request";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 413: return "Content Too Large";
            case 415: return "Unsupported Media Type";
            case 501: return "Not Implemented";
            case 503: return "Service Unavailable";
            default: return status >= 500 ? "Internal Server Error" : "Error";
        }
    }
}
