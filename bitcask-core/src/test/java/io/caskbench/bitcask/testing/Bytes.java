package io.caskbench.bitcask.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/** Small byte and file helpers shared by the tests. */
public final class Bytes {

    private Bytes() {
    }

    /** UTF-8 bytes of {@code s}. */
    public static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code size} bytes, each {@code fill}: a value whose every byte says which one it is. */
    public static byte[] filled(int size, int fill) {
        byte[] v = new byte[size];
        Arrays.fill(v, (byte) fill);
        return v;
    }

    /** The UTF-8 bytes of {@code text}, cut or padded with zeros to {@code length}. */
    public static byte[] padded(String text, int length) {
        return Arrays.copyOf(b(text), length);
    }

    /** {@code length} bytes from {@code rnd}. */
    public static byte[] random(Random rnd, int length) {
        byte[] v = new byte[length];
        rnd.nextBytes(v);
        return v;
    }

    /** Cuts {@code file} to {@code length} bytes. */
    public static void truncate(Path file, long length) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(length);
        }
    }

    /** Overwrites the bytes of {@code file} at {@code offset}. */
    public static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            raf.write(bytes);
        }
    }

    /** Index of the first occurrence of {@code needle} in {@code haystack}, or -1. */
    public static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
