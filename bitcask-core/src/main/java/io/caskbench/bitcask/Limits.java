package io.caskbench.bitcask;

import io.caskbench.bitcask.format.RecordFormat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>The argument checks of the public calls: what a key, a value and a time to live may be.
 */
final class Limits {

    /** Largest key to write, from the options. Final. */
    private final int maxKey;
    /** Largest value, from the options. Final. */
    private final int maxValue;

    Limits(int maxKey, int maxValue) {
        this.maxKey = maxKey;
        this.maxValue = maxValue;
    }

    /** A key to look up or delete: any key the format can hold, so a store reopened with a smaller limit still reaches every key. */
    static void checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0) {
            throw new IllegalArgumentException("key must not be empty");
        }
        if (key.length > RecordFormat.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds the format's limit of " + RecordFormat.MAX_KEY_LENGTH);
        }
    }

    /** A key to write a value under: within {@code maxKeySize}. */
    void checkNewKey(byte[] key) {
        checkKey(key);
        if (key.length > maxKey) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds maxKeySize " + maxKey);
        }
    }

    /** A value within {@code maxValueSize}. */
    void checkValue(byte[] value) {
        Objects.requireNonNull(value, "value");
        if (value.length > maxValue) {
            throw new IllegalArgumentException("value of " + value.length + " bytes exceeds maxValueSize " + maxValue);
        }
    }

    /** UTF-8 bytes of a key. */
    static byte[] utf8(String key) {
        return Objects.requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8);
    }

    /** A positive TTL in milliseconds; one too long for a long saturates, so it never wraps into the past. */
    static long ttlMillis(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive: " + ttl);
        }
        try {
            return Math.max(1, ttl.toMillis());
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
