package io.caskbench.bitcask.testing;

import io.caskbench.bitcask.BitCask;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Logical store contents as a sorted map of UTF-8 keys to values, for comparing a store with a model. */
public final class StoreState {

    private StoreState() {
    }

    /** Every live pair of {@code db}, read with {@code forEach}. */
    public static TreeMap<String, byte[]> read(BitCask db) {
        TreeMap<String, byte[]> found = new TreeMap<>();
        db.forEach((k, v) -> {
            String key = new String(k, StandardCharsets.UTF_8);
            if (found.put(key, v) != null) {
                throw new AssertionError("forEach yielded " + key + " twice");
            }
        });
        return found;
    }

    /** True when both maps hold the same keys with equal values. */
    public static <K> boolean same(Map<K, byte[]> a, Map<K, byte[]> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<K, byte[]> e : a.entrySet()) {
            if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The keys where {@code found} differs from {@code expected}, described briefly (at most 20). */
    public static String diff(Map<String, byte[]> found, Map<String, byte[]> expected) {
        TreeMap<String, Boolean> keys = new TreeMap<>();
        found.keySet().forEach(k -> keys.put(k, true));
        expected.keySet().forEach(k -> keys.put(k, true));
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (String k : keys.keySet()) {
            byte[] f = found.get(k);
            byte[] e = expected.get(k);
            if (!Arrays.equals(f, e)) {
                if (shown++ == 20) {
                    sb.append(" ...");
                    break;
                }
                sb.append(' ').append(k).append(": found ").append(describe(f)).append(", expected ").append(describe(e)).append(';');
            }
        }
        return sb.length() == 0 ? " none" : sb.toString();
    }

    /** A value in a message: absent, or its length and a hash. */
    public static String describe(byte[] v) {
        return v == null ? "absent" : v.length + " bytes #" + Integer.toHexString(Arrays.hashCode(v));
    }

    /** A mutable copy of {@code state}. */
    public static TreeMap<String, byte[]> copy(Map<String, byte[]> state) {
        return new TreeMap<>(Objects.requireNonNull(state));
    }
}
