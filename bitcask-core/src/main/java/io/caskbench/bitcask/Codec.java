package io.caskbench.bitcask;

/**
 * Threading: an implementation is called from any thread at once, so it must be thread-safe.
 *
 * <p>Turns values of type {@code T} into bytes and back, for {@link TypedBitCask}.
 *
 * @param <T> the value type
 */
public interface Codec<T> {

    /** Encodes a value; never returns null. */
    byte[] encode(T value);

    /** Decodes bytes produced by {@link #encode}. */
    T decode(byte[] bytes);
}
