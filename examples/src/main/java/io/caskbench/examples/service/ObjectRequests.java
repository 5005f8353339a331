package io.caskbench.examples.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.caskbench.examples.service.ApiJson.PutObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the API accepts: bucket names, object keys, query strings and PUT bodies, each checked and
 * turned into values, or refused with a 400 whose message says what to send instead.
 */
final class ObjectRequests {

    /** S3's rule, minus the IP-address special cases: also keeps '/' out of bucket names. */
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern MD5 = Pattern.compile("[0-9a-fA-F]{32}");
    private static final Pattern MEDIA_TYPE = Pattern.compile("[\\w!#$&^.+-]+/[\\w!#$&^.+-]+( *;[ -~]*)?");
    private static final Pattern META_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x7f]");
    static final int MAX_META_ENTRIES = 32;
    static final int MAX_META_VALUE = 1024;
    static final int MAX_CONTENT_TYPE = 255;

    private ObjectRequests() {
    }

    /** Reads a PUT body with the strict mapper; a 400 names the field or the place that was wrong. */
    static PutObject parse(byte[] body) {
        PutObject req;
        try {
            req = ApiJson.MAPPER.readValue(body, PutObject.class);
        } catch (JsonProcessingException e) {
            throw new HttpError(400, ApiJson.describe(e));
        } catch (IOException e) {
            throw new HttpError(400, "unreadable body");
        }
        if (req == null) {
            throw new HttpError(400, "the body must be a JSON object");
        }
        return req;
    }

    /** The metadata a valid PUT body describes, stored at {@code created}. */
    static ObjectMeta toMeta(String bucket, String key, PutObject req, Instant created) {
        if (req.size() == null || req.size() < 0) {
            throw new HttpError(400, "size is required and must be >= 0");
        }
        if (req.md5() == null || !MD5.matcher(req.md5()).matches()) {
            throw new HttpError(400, "md5 is required: 32 hex digits");
        }
        String contentType = req.contentType() == null ? "application/octet-stream" : req.contentType();
        if (contentType.length() > MAX_CONTENT_TYPE || !MEDIA_TYPE.matcher(contentType).matches()) {
            throw new HttpError(400, "contentType must be a media type like image/png");
        }
        Map<String, String> metadata = req.userMetadata() == null ? Map.of() : req.userMetadata();
        if (metadata.size() > MAX_META_ENTRIES) {
            throw new HttpError(400, "at most " + MAX_META_ENTRIES + " userMetadata entries");
        }
        Map<String, String> checked = new HashMap<>();
        metadata.forEach((name, value) -> {
            if (name == null || !META_NAME.matcher(name).matches()) {
                throw new HttpError(400, "userMetadata names are 1-128 letters, digits, '-', '_' or '.'");
            }
            if (value == null || value.length() > MAX_META_VALUE || CONTROL.matcher(value).find()) {
                throw new HttpError(400, "userMetadata value of " + name + " must be a string of at most "
                        + MAX_META_VALUE + " printable characters");
            }
            checked.put(name, value);
        });
        return new ObjectMeta(bucket, key, req.size(), req.md5().toLowerCase(Locale.ROOT), contentType,
                created, checked);
    }

    /** A decoded, valid bucket name. */
    static String bucket(String raw) {
        String bucket = decode(raw, false);
        if (!BUCKET.matcher(bucket).matches()) {
            throw new HttpError(400, "bucket names are 3-63 lower-case letters, digits, '.' or '-'");
        }
        return bucket;
    }

    /** A decoded, valid object key. */
    static String objectKey(String raw) {
        String key = decode(raw, false);
        if (key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > ObjectStore.MAX_OBJECT_KEY_BYTES) {
            throw new HttpError(400, "object keys are 1 to " + ObjectStore.MAX_OBJECT_KEY_BYTES + " UTF-8 bytes");
        }
        if (CONTROL.matcher(key).find()) {
            throw new HttpError(400, "object keys must not contain control characters");
        }
        return key;
    }

    /** Parses a query string, refusing unknown and repeated parameters. */
    static Map<String, String> query(String rawQuery, Set<String> known) {
        Map<String, String> values = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return values;
        }
        for (String pair : rawQuery.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            if (!known.contains(name)) {
                throw new HttpError(400, "unknown query parameter '" + name + "'; known: " + known);
            }
            if (values.put(name, value) != null) {
                throw new HttpError(400, "query parameter " + name + " given twice");
            }
        }
        return values;
    }

    /**
     * Percent-decodes a path segment ('+' stays '+') or a query part ('+' is a space, as in forms), then
     * decodes the bytes as UTF-8, strictly: a lenient decoder turns every invalid sequence into U+FFFD,
     * so {@code %C3%28} and {@code %FF%28} would name one key and the second put would replace the first.
     * A malformed escape or an invalid sequence is refused, naming its byte offset in the decoded bytes.
     */
    static String decode(String raw, boolean query) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    throw new HttpError(400, "bad percent-escape at byte " + bytes.size() + " of " + raw
                            + ": '%' must be followed by two hex digits");
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && query) {
                bytes.write(' ');
            } else {
                byte[] plain = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(plain, 0, plain.length);
            }
        }
        ByteBuffer in = ByteBuffer.wrap(bytes.toByteArray());
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer out = CharBuffer.allocate(in.remaining());
        CoderResult result = utf8.decode(in, out, true);
        if (result.isError()) {
            throw new HttpError(400, "'" + raw + "' is not valid UTF-8 once percent-decoded: "
                    + result.length() + " bad byte(s) at byte " + in.position());
        }
        utf8.flush(out);
        return out.flip().toString();
    }

    /** True when {@code s} holds a control character. */
    static boolean hasControl(String s) {
        return CONTROL.matcher(s).find();
    }
}
