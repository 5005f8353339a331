package io.caskbench.examples.service;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The JSON bodies of the API and the strict Jackson mapper that reads and writes them. Strict
 * means a malformed request is refused with 400 rather than guessed at: unknown fields, duplicate
 * fields, trailing content and scalars of the wrong type ({@code "size": "12"}, {@code "md5": 7})
 * are all errors.
 */
public final class ApiJson {

    /** The mapper; thread-safe once configured. */
    public static final ObjectMapper MAPPER = strictMapper();

    private ApiJson() {
    }

    private static ObjectMapper strictMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        // Only the shape a field is declared with is accepted: no "12" for a number, no 7 for a string.
        Map<LogicalType, List<CoercionInputShape>> refused = Map.of(
                LogicalType.Textual, List.of(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean),
                LogicalType.Integer, List.of(CoercionInputShape.String, CoercionInputShape.EmptyString,
                        CoercionInputShape.Float, CoercionInputShape.Boolean),
                LogicalType.Boolean, List.of(CoercionInputShape.String, CoercionInputShape.EmptyString,
                        CoercionInputShape.Integer, CoercionInputShape.Float));
        refused.forEach((type, shapes) -> shapes.forEach(
                shape -> mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail)));
        return mapper;
    }

    /**
     * What was wrong with a request body, in the client's terms: the field and the JSON type it
     * must have, or where the syntax broke. Jackson's own messages name Java types and Jackson
     * settings, which mean nothing to a client and tell it how the server is built.
     */
    public static String describe(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            Collection<Object> known = unknown.getKnownPropertyIds();
            return "unknown field '" + unknown.getPropertyName() + "'"
                    + (known == null ? "" : "; known fields: " + new TreeSet<>(known.stream().map(String::valueOf)
                    .collect(Collectors.toSet())));
        }
        if (e instanceof MismatchedInputException mismatch) {
            String field = fieldPath(mismatch.getPath());
            if (!field.isEmpty()) {
                return "field '" + field + "' must be " + jsonType(mismatch.getTargetType());
            }
            String message = String.valueOf(mismatch.getOriginalMessage());
            if (message.startsWith("No content")) {
                return "the body is empty: expected a JSON object";
            }
            if (message.startsWith("Trailing token")) {
                return "content after the JSON object";
            }
            return "the body must be a JSON object";
        }
        if (e instanceof JsonParseException syntax) {
            String message = String.valueOf(syntax.getOriginalMessage());
            if (message.startsWith("Duplicate field ")) {
                return "field " + message.substring("Duplicate field ".length()) + " given twice";
            }
            JsonLocation at = syntax.getLocation();
            return "malformed JSON" + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr());
        }
        return "malformed JSON";
    }

    private static String fieldPath(List<JsonMappingException.Reference> path) {
        StringBuilder field = new StringBuilder();
        for (JsonMappingException.Reference ref : path) {
            if (ref.getFieldName() != null) {
                field.append(field.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                field.append('[').append(ref.getIndex()).append(']');
            }
        }
        return field.toString();
    }

    private static String jsonType(Class<?> type) {
        if (type == null) {
            return "of another JSON type";
        }
        if (type == Long.class || type == Integer.class || type == long.class || type == int.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    /**
     * The body of {@code PUT /buckets/{b}/objects/{key}}; bucket and key come from the path, the
     * creation time from the server's clock.
     *
     * @param size         object size in bytes, required, at least 0
     * @param md5          MD5 of the object's bytes, 32 hex digits, required
     * @param contentType  media type, default {@code application/octet-stream}
     * @param userMetadata user-defined name/value pairs, optional
     */
    public record PutObject(Long size, String md5, String contentType, Map<String, String> userMetadata) {
    }

    /**
     * An object's metadata as the API returns it.
     *
     * @param bucket       the bucket
     * @param key          the object key
     * @param size         size in bytes
     * @param md5          MD5, lower-case hex
     * @param contentType  media type
     * @param created      when the metadata was stored, ISO-8601 UTC
     * @param userMetadata user-defined name/value pairs
     */
    public record ObjectView(String bucket, String key, long size, String md5, String contentType, String created,
                             Map<String, String> userMetadata) {

        /** The view of stored metadata. */
        public static ObjectView of(ObjectMeta m) {
            return new ObjectView(m.bucket(), m.key(), m.size(), m.md5(), m.contentType(), m.created().toString(),
                    m.userMetadata());
        }
    }

    /**
     * The body of {@code GET /buckets/{b}/objects}. A page ends at {@code limit} objects; the next
     * page is asked for with {@code continuationToken=nextContinuationToken}, as in S3's ListObjectsV2.
     *
     * @param bucket                the bucket
     * @param prefix                the prefix asked for, empty for all
     * @param startAfter            the key the page starts after, empty for the first page
     * @param objects               the matching objects in key order
     * @param truncated             true when more objects matched than {@code limit}
     * @param nextContinuationToken what to send to get the next page; null on the last page
     */
    public record ObjectListing(String bucket, String prefix, String startAfter, List<ObjectView> objects,
                                boolean truncated, String nextContinuationToken) {
    }

    /**
     * The body of {@code GET /stats}.
     *
     * @param dataDir    the store's directory
     * @param backend    the segment backend
     * @param syncPolicy the sync policy
     * @param keys       objects stored
     * @param liveBytes  bytes of current records
     * @param deadBytes  bytes merge would reclaim
     * @param segments   segment files
     * @param diskBytes  bytes of data and hint files
     * @param indexBytes heap bytes of the key directory
     * @param responses  responses sent since start, by status class ({@code 2xx}, {@code 4xx}, {@code 5xx})
     */
    public record Stats(String dataDir, String backend, String syncPolicy, long keys, long liveBytes, long deadBytes,
                        int segments, long diskBytes, long indexBytes, Map<String, Long> responses) {
    }

    /**
     * The body of every error response, an RFC 9457 problem ({@code application/problem+json}).
     *
     * @param type     a URI that names the kind of problem; {@code about:blank} when the status says it all
     * @param title    the status's short description, the same for every problem of that status
     * @param status   the HTTP status, repeated for clients that only see the body
     * @param detail   what was wrong with this request, for a human
     * @param instance the path of the request that failed
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Problem(String type, String title, int status, String detail, String instance) {
    }

    /**
     * The body of {@code GET /health} and {@code GET /ready}.
     *
     * @param status {@code UP}, or for readiness {@code READY}, {@code OPENING} or {@code DRAINING}
     */
    public record Health(String status) {
    }
}
