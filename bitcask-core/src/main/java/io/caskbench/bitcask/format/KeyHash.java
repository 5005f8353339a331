package io.caskbench.bitcask.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Threading: stateless, safe everywhere.
 *
 * <p>The 32-bit key hash of the key directory: eight bytes per step, then a full avalanche. It is
 * part of the format, as hint files list their entries in its order.
 */
public final class KeyHash {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long M = 0x9E3779B97F4A7C15L;

    private KeyHash() {
    }

    /** Hash of {@code key[off, off + len)}. */
    public static int hash(byte[] key, int off, int len) {
        long h = len * M;
        int i = off;
        int end = off + len;
        for (; i + 8 <= end; i += 8) {
            h = Long.rotateLeft(h ^ ((long) LONG.get(key, i) * M), 29) * M;
        }
        long tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
            tail |= (key[i] & 0xFFL) << shift;
        }
        h = Long.rotateLeft(h ^ (tail * M), 29) * M;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
    }

    /** Hash of a whole key. */
    public static int hash(byte[] key) {
        return hash(key, 0, key.length);
    }
}
