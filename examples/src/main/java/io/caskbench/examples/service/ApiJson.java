package io.caskbench.examples.service;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;

import java.util.List;
import java.util.Map;

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
     * The body of {@code GET /buckets/{b}/objects}.
     *
     * @param bucket    the bucket
     * @param prefix    the prefix asked for, empty for all
     * @param objects   the matching objects in key order
     * @param truncated true when more objects matched than {@code limit}
     */
    public record ObjectListing(String bucket, String prefix, List<ObjectView> objects, boolean truncated) {
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
     * The body of every error response.
     *
     * @param status the HTTP status, repeated for clients that only see the body
     * @param error  what was wrong, for a human
     */
    public record ErrorBody(int status, String error) {
    }
}
