package io.caskbench.bitcask;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Threading: as thread-safe as the store it wraps.
 *
 * <p>A view of a {@link BitCask} with UTF-8 string keys and values of type {@code T}. It shares the
 * store: closing the store closes the view. Thread-safe when the codec is.
 *
 * @param <T> the value type
 */
public final class TypedBitCask<T> {

    /** Final, safe everywhere. */
    private final BitCask store;
    /** Final, safe everywhere. */
    private final Codec<T> codec;

    TypedBitCask(BitCask store, Codec<T> codec) {
        this.store = store;
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** Stores {@code value} under {@code key}. */
    public void put(String key, T value) {
        store.put(key, codec.encode(Objects.requireNonNull(value, "value")));
    }

    /** Stores {@code value} under {@code key} until {@code ttl} has passed. */
    public void put(String key, T value, Duration ttl) {
        store.put(Limits.utf8(key), codec.encode(Objects.requireNonNull(value, "value")), ttl);
    }

    /** The value under {@code key}, or null when absent. */
    public T get(String key) {
        byte[] bytes = store.get(key);
        return bytes == null ? null : codec.decode(bytes);
    }

    /** Deletes {@code key}; true when a live value was removed. */
    public boolean delete(String key) {
        return store.delete(key);
    }

    /** True when {@code key} has a live value. */
    public boolean containsKey(String key) {
        return store.containsKey(Limits.utf8(key));
    }

    /** Visits each live pair once; weakly consistent like {@link BitCask#forEach}. */
    public void forEach(BiConsumer<String, T> action) {
        store.forEach((k, v) -> action.accept(new String(k, StandardCharsets.UTF_8), codec.decode(v)));
    }

    /** The underlying store. */
    public BitCask store() {
        return store;
    }
}
