package io.caskbench.bench.store.overwrite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the bytes this process caused to be written to the storage layer, {@code write_bytes} of
 * {@code /proc/self/io}. It counts this JVM only (its store's background threads included, page-cache
 * write-back of pages it dirtied included), so each benchmark fork measures its own store; on a file
 * system with no device (tmpfs) it stays 0.
 */
public final class ProcIo {

    private static final Path FILE = Path.of("/proc/self/io");
    private static final String FIELD = "write_bytes:";

    private ProcIo() {
    }

    /** This process's {@code write_bytes} so far, or -1 where {@code /proc/self/io} cannot be read. */
    public static long writeBytes() {
        try {
            return parse(Files.readString(FILE, StandardCharsets.US_ASCII));
        } catch (IOException | SecurityException e) {
            return -1;
        }
    }

    /** The {@code write_bytes} value of a {@code /proc/<pid>/io} text, or -1 when it has none. */
    static long parse(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith(FIELD)) {
                try {
                    return Long.parseLong(line.substring(FIELD.length()).trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
