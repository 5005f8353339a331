package io.caskbench.bench.store.overwrite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The disk space a store directory takes: the blocks allocated to it as {@code du -s -B1} reports them,
 * so a preallocated but unwritten mapped segment counts for what it really holds; where {@code du} cannot
 * run, the sum of the files' lengths.
 */
public final class DiskUsage {

    private DiskUsage() {
    }

    /** Bytes allocated under {@code dir}. */
    public static long of(Path dir) {
        long du = du(dir);
        return du >= 0 ? du : apparent(dir);
    }

    /** The sum of the lengths of the regular files under {@code dir}; files deleted meanwhile count 0. */
    static long apparent(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(DiskUsage::size).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0; // a segment a merge deleted while we walked
        }
    }

    /** {@code du}'s figure in bytes, or -1 when it failed or took over 10 s. */
    static long du(Path dir) {
        try {
            Process p = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            // du exits 1 when a file vanished during the walk; its total still stands.
            String text = new String(out, StandardCharsets.US_ASCII).trim();
            int tab = text.indexOf('\t');
            return tab > 0 ? Long.parseLong(text.substring(0, tab)) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
