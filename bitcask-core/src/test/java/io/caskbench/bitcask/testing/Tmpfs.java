package io.caskbench.bitcask.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system for full-disk tests: a tmpfs of a given size mounted on a directory and
 * unmounted by {@link #close()}. Mounting needs root (as in the build's containers); where it is not
 * permitted, {@link #mount} skips the test with a message saying so.
 */
public final class Tmpfs implements AutoCloseable {

    /** Final. */
    private final Path dir;
    /** Whether it is still mounted; the test's thread. */
    private boolean mounted = true;

    private Tmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (as mount's option says it, e.g. {@code 4m}) on {@code dir}, created if needed. */
    public static Tmpfs mount(Path dir, String size) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String out = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString()));
        Assumptions.assumeTrue(out == null, () -> "skipped: this test needs a real small file system, and a tmpfs cannot be mounted here ("
                + out + "); run it as root to include it");
        return new Tmpfs(dir);
    }

    /** The mount point. */
    public Path path() {
        return dir;
    }

    /** Bytes the file system still has for files. */
    public long usable() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Unmounts it; idempotent. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (mounted) {
            mounted = false;
            String out = run(List.of("umount", dir.toString()));
            if (out != null) {
                throw new IOException("cannot unmount " + dir + ": " + out);
            }
        }
    }

    /** Runs a command for at most 30 s; null when it succeeded, else what it said. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", command) + " did not finish in 30 s";
        }
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + said;
    }
}
